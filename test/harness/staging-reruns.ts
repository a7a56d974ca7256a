/**
 * Gate runs back to back against one lax, long-lived reference deployment, each part its own
 * process, as CI meets staging in the wild: `harness serve --reading
 * U26=no-limits,U6=ignore-wrong-types --seed-tickets N` (thousands of old tickets per workspace, odd content, a few 300 KB one-word subjects, 2000-tag lists; no body
 * size limit, wrong-typed update fields ignored) and `harness run --skip load` reached only through
 * HARNESS_* variables, with the key of the plan each run names (a Team key paces the run at the
 * refill rate). Shared by test/harness/staging-reruns.test.ts (CI-sized) and
 * scripts/staging-reruns.ts (the full three Team runs).
 *
 * After each run it reads the deployment itself — the whole workspace, which the harness must not
 * — and finds every ticket created since the deployment started that is still open: what the gate
 * left on staging besides what it reports.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../core/net.ts';
import type { ReadStats } from '../../core/http/read-tally.ts';
import type { LeftOnTarget } from '../../core/target/clean-up.ts';
import { LIST_ROW_BYTES } from '../../core/http/created-ledger.ts';
import type { Summary } from '../../report/summary.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { runHarness } from './gate-processes.ts';

const EVERY_EVENT = fileURLToPath(new URL('../readings/every-event.yaml', import.meta.url));

export interface StagingScenario {
  /** Old tickets per workspace (`--seed-tickets`). */
  seedTickets: number;
  /** The plan of HARNESS_API_KEY in each run, in order. */
  runs: Array<'team' | 'growth'>;
  /** Extra `serve` options (e.g. `--time-scale 5`). */
  serveArgs?: string[];
  /** Time limit of one run. */
  runLimitMs: number;
  /** Told of each run as it ends (progress of a long scenario). */
  onRun?: (r: StagingRun) => void;
  /** Extra environment of every run (e.g. HARNESS_RUN_MAX_SECONDS). */
  env?: Record<string, string>;
  /** Readings beside the lax pair (`U4=unpaginated`: lists that ignore limit and cursor). */
  readings?: string[];
  /**
   * Its webhooks as a user's dashboard has them: one endpoint subscribed to every event all the
   * time (test/readings/every-event.yaml), delivering to the harness's shared receiver.
   */
  everyEvent?: boolean;
}

export interface StagingRun {
  n: number;
  plan: 'team' | 'growth';
  code: number | null;
  wallS: number;
  summary?: Summary;
  /** The end of the run's console output (what a CI log shows). */
  tail: string;
  /** Tickets created since the deployment started and not closed, after this run (its own and earlier runs'). */
  openSinceStart: Array<{ id: string; subject: string; status: string }>;
}

export interface StagingResult {
  serveCommand: string;
  seedMs?: number;
  runs: StagingRun[];
}

type Creds = {
  workspaces: Record<string, { keys: { full: string; readOnly: string } }>;
};

/** Every ticket of the key's workspace created at or after `sinceMs` that is not closed. */
async function openSince(
  baseUrl: string,
  key: string,
  sinceMs: number,
): Promise<StagingRun['openSinceStart']> {
  const open: StagingRun['openSinceStart'] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const r = await fetch(`${baseUrl}/v1/tickets?${q}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (r.status === 429) {
      await new Promise((s) => setTimeout(s, 1000 * Number(r.headers.get('retry-after') ?? 1)));
      page--;
      continue;
    }
    const j = (await r.json()) as {
      data: Array<{ id: string; subject: string; status: string; created_at: string }>;
      next_cursor: string | null;
    };
    for (const t of j.data) {
      // Newest first: past the deployment's start, only old tickets follow.
      if (Date.parse(t.created_at) < sinceMs) return open;
      if (t.status !== 'closed')
        open.push({ id: t.id, subject: t.subject.slice(0, 80), status: t.status });
    }
    if (!j.next_cursor) return open;
    cursor = j.next_cursor;
  }
  return open;
}

export async function stagingReruns(o: StagingScenario): Promise<StagingResult> {
  const secrets = {
    HOOK_EVERY_SECRET: `whsec_${randomBytes(12).toString('base64url')}`,
    HOOK_CREATED_SECRET: `whsec_${randomBytes(12).toString('base64url')}`,
  };
  const serveArgs = [
    '--reading',
    ['U26=no-limits', 'U6=ignore-wrong-types', ...(o.readings ?? [])].join(','),
    '--seed-tickets',
    String(o.seedTickets),
    ...(o.everyEvent
      ? [
          '--webhook-endpoints',
          EVERY_EVENT,
          '--webhook-url',
          `http://127.0.0.1:${await freePort()}`,
        ]
      : []),
    ...(o.serveArgs ?? []),
  ];
  const startedMs = Date.now();
  const served = await spawnServe(serveArgs, o.everyEvent ? { env: secrets } : {});
  const result: StagingResult = {
    serveCommand: `node bin/harness.mjs serve --port 0 ${serveArgs.join(' ')}`,
    runs: [],
  };
  try {
    const creds = JSON.parse(readFileSync(served.credentialsFile, 'utf8')) as Creds;
    for (const [i, plan] of o.runs.entries()) {
      const ws = creds.workspaces[plan]!;
      const env = {
        ...served.vars,
        HARNESS_API_KEY: ws.keys.full,
        HARNESS_READONLY_KEY: ws.keys.readOnly,
        ...o.env,
      };
      const t0 = Date.now();
      const run = await runHarness(env, ['--skip', 'load'], { limitMs: o.runLimitMs });
      const summary = run.wrote('summary.json')
        ? (JSON.parse(run.read('summary.json')) as Summary)
        : undefined;
      const r: StagingRun = {
        n: i + 1,
        plan,
        code: run.code,
        wallS: Math.round((Date.now() - t0) / 100) / 10,
        ...(summary ? { summary } : {}),
        tail: `${run.stderr.slice(-1500)}\n${run.stdout.slice(-4000)}`,
        openSinceStart: await openSince(served.baseUrl, ws.keys.full, startedMs),
      };
      result.runs.push(r);
      o.onRun?.(r);
    }
  } finally {
    await served.stop();
  }
  return result;
}

/** One line per run: what a reader of the scenario's output needs. */
export function runLine(r: StagingRun): string {
  const s = r.summary;
  if (!s) return `run ${r.n} (${r.plan} key): exit ${r.code} in ${r.wallS} s — no summary.json`;
  const req = s.requests;
  const reads: ReadStats | undefined = s.reads?.total;
  const left: LeftOnTarget | undefined = s.leftOnTarget;
  const t = left?.counts.ticket;
  const areas = Object.entries(s.areas)
    .filter(([a]) => a !== 'compatibility')
    .map(([a, x]) => `${a} ${x.verdict.toUpperCase()}`)
    .join(', ');
  return [
    `run ${r.n} (${r.plan} key): exit ${r.code}, ${s.verdict.toUpperCase()} in ${r.wallS} s — ${areas}`,
    `  requests ${req?.total ?? '?'} (contracts ${req?.byArea.contracts ?? '?'}, fuzz ${req?.byArea.fuzz ?? '?'}), waited ${req?.waitedS ?? '?'} s, ${req?.rateLimited ?? '?'}× 429`,
    `  read ${reads ? `${reads.tickets} tickets on ${reads.pages} list pages (${(reads.bytes / 1e6).toFixed(2)} MB, ${reads.bytes} bytes)` : '?'}`,
    `  tickets created ${t?.created ?? '?'}, closed ${t?.cleaned ?? '?'} (${left?.closed ? `${(left.closed.bytes / 1000).toFixed(1)} kB, the largest ${left.closed.list[0]?.bytes ?? 0} B` : '?'}), left ${t?.left ?? '?'}; open on the deployment since it started: ${r.openSinceStart.length}`,
    `  warnings ${Object.values(s.areas).reduce((n, a) => n + a.assumptionMismatches.length, 0)}, documented failures ${Object.values(s.areas).reduce((n, a) => n + a.documentedFailures.length, 0)}`,
  ].join('\n');
}

/**
 * What a list read may cost a run, whatever the workspace holds (stated in the README): the
 * seeded workspaces hold thousands of tickets each, a walk of either to its end far more.
 */
export const READ_BOUND = { pages: 150, tickets: 2500 };

/**
 * What is wrong with a run, for a test to assert empty and a script to print; [] when fine.
 * `bound`: what a list read may cost a run (null against lists that ignore limit: each read is the
 * whole workspace — what bounds those is that they do not grow run over run, `readGrowth`).
 */
export function problemsOf(r: StagingRun, bound: typeof READ_BOUND | null = READ_BOUND): string[] {
  const s = r.summary;
  if (!s) return [`run ${r.n}: no summary.json (exit ${r.code})\n${r.tail}`];
  const out: string[] = [];
  const failures = Object.entries(s.areas).flatMap(([a, x]) =>
    x.documentedFailures.map((f) => `${a}: [${f.check}] ${f.received}`),
  );
  if (r.code !== 0 || s.verdict !== 'pass')
    out.push(
      `run ${r.n}: exit ${r.code}, ${s.verdict}${failures.length ? `\n  ${failures.join('\n  ')}` : ''}${Object.entries(
        s.areas,
      )
        .filter(([, a]) => a.verdict === 'error')
        .map(([n, a]) => `\n  ${n} could not run: ${a.error ?? a.headline}`)
        .join('')}`,
    );
  // A test of what limit does is not run where the list ignores limit (contracts/helpers.ts).
  const notRun = (s.areas.contracts?.notRun ?? []).filter(
    (n) => !n.reason.startsWith('the ticket list ignores limit'),
  );
  if (notRun.length)
    out.push(
      `run ${r.n}: contract tests not run: ${notRun.map((n) => `${n.name} (${n.reason})`).join('; ')}`,
    );
  if ((s.requests?.inconclusive ?? 0) > 0)
    out.push(`run ${r.n}: ${s.requests!.inconclusive} requests given up (rate limit)`);
  const read = s.reads?.total;
  if (!read) out.push(`run ${r.n}: summary.json says nothing of what was read`);
  else if (bound && (read.pages > bound.pages || read.tickets > bound.tickets))
    out.push(
      `run ${r.n}: read ${read.tickets} tickets on ${read.pages} pages, more than ${bound.tickets} / ${bound.pages}`,
    );
  const left = s.leftOnTarget;
  if (!left) out.push(`run ${r.n}: summary.json says nothing of what was left`);
  else {
    const { ticket, contact } = left.counts;
    if (ticket.created === 0) out.push(`run ${r.n}: no ticket created?`);
    if (ticket.left + contact.left > 0)
      out.push(`run ${r.n}: left ${JSON.stringify(left.left.filter((l) => l.kind !== 'rule'))}`);
    // Nothing a list shows larger than a few KB: every later run's list answers carry it.
    const big = (left.closed?.list ?? []).filter((t) => (t.bytes ?? 0) > LIST_ROW_BYTES);
    if (big.length)
      out.push(`run ${r.n}: left closed, over ${LIST_ROW_BYTES} bytes: ${JSON.stringify(big)}`);
    if (!left.closed || left.closed.tickets !== ticket.cleaned)
      out.push(`run ${r.n}: summary.json does not list each ticket left closed with its size`);
  }
  if (r.openSinceStart.length)
    out.push(
      `run ${r.n}: ${r.openSinceStart.length} tickets created since the deployment started are still open, e.g. ${JSON.stringify(r.openSinceStart.slice(0, 3))}`,
    );
  return out;
}

/**
 * How the bytes a run reads grow run over run: each run's over the first's. Against lists that
 * ignore limit every read is the whole workspace, so what each run leaves there comes back in every
 * later run's reads; the bound is on the growth (the tenth run at most 1.2× the first).
 */
export function readGrowth(runs: readonly StagingRun[]): number[] {
  const bytes = runs.map((r) => r.summary?.reads?.total.bytes ?? Number.NaN);
  return bytes.map((b) => b / bytes[0]!);
}
