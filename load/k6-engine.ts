/**
 * The k6 engine: spawns `k6 run load/plan-limits.ts` for one plan and reads the result its
 * handleSummary writes (the same LoadResult the Node engine returns). Keys travel in the
 * environment, never on the command line where `ps` would show them.
 */
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import {
  type LiveProgress,
  type LoadResult,
  type PhaseName,
  type PlanName,
  type PlanOverrides,
  type ProbeHint,
  parseIntStrict,
  resolvePlan,
  type ScheduleOptions,
} from './lib/index.ts';
import { redact } from '../core/redact.ts';
import { freePort } from '../core/net.ts';
import { ProcessGroup } from '../core/process/process-group.ts';
import { pollK6Progress } from './k6-progress.ts';

const executable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** `../shared/bin/k6` beside the checkout: the development/CI copy, not something users have. */
export const SHARED_K6 = resolve(fileURLToPath(new URL('../..', import.meta.url)), 'shared/bin/k6');

export interface FoundK6 {
  path: string;
  from: 'K6_BIN' | 'PATH' | 'shared';
}

/**
 * Which k6 to run: `K6_BIN`, else `k6` on PATH, else (only when `shared` is set) the shared
 * development copy `../shared/bin/k6`. `--engine auto` passes shared=false, so a user's default
 * engine only changes when they installed k6 themselves; `--engine k6` and the tests pass true.
 */
export function findK6(
  opts: { shared?: boolean; env?: NodeJS.ProcessEnv } = {},
): FoundK6 | undefined {
  const env = opts.env ?? process.env;
  if (env.K6_BIN) {
    if (!executable(env.K6_BIN)) throw new Error(`K6_BIN=${env.K6_BIN} is not an executable file`);
    return { path: env.K6_BIN, from: 'K6_BIN' };
  }
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, process.platform === 'win32' ? 'k6.exe' : 'k6'))
    .find(executable);
  if (onPath) return { path: onPath, from: 'PATH' };
  if (opts.shared && executable(SHARED_K6)) return { path: SHARED_K6, from: 'shared' };
  return undefined;
}

export interface K6PlanOptions {
  k6: string;
  plan: PlanName;
  baseUrl: string;
  keys: readonly string[];
  /** A key of another workspace: the script's S0w and S5w send with it (OTHER_WORKSPACE_KEY). */
  otherWorkspaceKey?: string | undefined;
  timeScale: number;
  /** Hard wall-clock limit: k6 is killed when it is reached. */
  maxSeconds: number;
  enterprise?: PlanOverrides;
  /** What a probe of an Enterprise key showed (probeEnterprise), for numbers not configured. */
  enterpriseProbe?: ProbeHint;
  /** Schedule overrides, passed to the script as OVERDRIVE_S, UNDER_RATE_S, IDLE_S. */
  schedule?: ScheduleOptions;
  script: string;
  /** Stops k6 early (the run's time limit, or a sibling plan that failed). */
  signal?: AbortSignal;
  /** k6's own console output goes here (the CLI: stderr, above the progress); default none. */
  progress?: { write(text: string): unknown } | null;
  /** Requests the plan's schedule sends (the progress line's denominator). */
  planned?: number;
  /** The schedule's idle period before each phase, server s (the progress line's words). */
  idleS?: Partial<Record<PhaseName, number>>;
  /** Called once k6 starts with a reader of its live progress (from k6's REST API). */
  onProgress?: (read: () => LiveProgress | undefined) => void;
}

/**
 * k6 cannot probe in its init context, so an Enterprise plan without configured numbers is
 * probed here with one request, as the Node driver's S0 does; the script sizes the plan from what
 * it saw (`resolvePlan`: the Limit header, the first Remaining + 1, reported as such). k6 starts
 * only once that token has refilled, so that its own S0 still finds a full bucket.
 */
export async function probeEnterprise(
  baseUrl: string,
  key: string,
  overrides: PlanOverrides | undefined,
  timeScale: number,
  signal?: AbortSignal,
): Promise<ProbeHint> {
  if (overrides?.ratePerMin !== undefined && overrides.burst !== undefined) return {};
  const res = await request(`${baseUrl}/v1/tickets?limit=1`, {
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    ...(signal ? { signal } : {}),
  });
  await res.body.dump();
  const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);
  const probe: ProbeHint = {
    limitHeader: parseIntStrict(one(res.headers['x-ratelimit-limit'])),
    remaining: parseIntStrict(one(res.headers['x-ratelimit-remaining'])),
  };
  const limits = resolvePlan('enterprise', overrides ?? {}, probe);
  await sleep(((1.5 * 60) / limits.ratePerMin / timeScale) * 1000, undefined, { signal });
  return probe;
}

/** After SIGINT k6 still runs handleSummary; one that hangs beyond this is killed outright. */
const KILL_GRACE_MS = 15_000;

export async function runPlanK6(o: K6PlanOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'harness-k6-'));
  let tail = '';
  const summary = join(dir, `load-${o.plan}.json`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PLAN: o.plan,
    BASE_URL: o.baseUrl,
    TIME_SCALE: String(o.timeScale),
    SUMMARY_PATH: summary,
    PLAN_KEYS: o.keys.join(','),
    // Always set, empty when there is none: the script must not fall back to a
    // HARNESS_OTHER_WORKSPACE_KEY this process happens to inherit that the run left out.
    OTHER_WORKSPACE_KEY: o.otherWorkspaceKey ?? '',
    K6_NO_USAGE_REPORT: 'true',
  };
  if (o.enterprise?.ratePerMin !== undefined) env.ENTERPRISE_RATE = String(o.enterprise.ratePerMin);
  if (o.enterprise?.burst !== undefined) env.ENTERPRISE_BURST = String(o.enterprise.burst);
  if (o.enterpriseProbe?.limitHeader !== undefined)
    env.ENTERPRISE_PROBE_LIMIT = String(o.enterpriseProbe.limitHeader);
  if (o.enterpriseProbe?.remaining !== undefined)
    env.ENTERPRISE_PROBE_REMAINING = String(o.enterpriseProbe.remaining);
  if (o.schedule?.overdriveS) env.OVERDRIVE_S = String(o.schedule.overdriveS);
  if (o.schedule?.underRateS) env.UNDER_RATE_S = String(o.schedule.underRateS);
  if (o.schedule?.idleS) env.IDLE_S = o.schedule.idleS.join(',');
  if (o.schedule?.maxRealRate) env.MAX_REAL_RATE = String(o.schedule.maxRealRate);
  // k6's REST API on a port of its own: the live counters of this plan (k6-progress.ts).
  const port = await freePort();
  const live = pollK6Progress(port, o.plan, o.planned ?? 0, o.idleS);
  o.onProgress?.(live.current);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const args = ['run', '--quiet', '--address', `127.0.0.1:${port}`, o.script];
      // A group of its own: the run's interrupt and the reaper end it with the rest (k6 stops
      // on SIGINT and still writes its summary).
      const group = new ProcessGroup(
        o.k6,
        args,
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
        'SIGINT',
      );
      const child = group.child;
      // Kept for the error message when k6 writes no summary; shown live only where asked,
      // whole lines at a time so that redaction sees every secret whole.
      for (const stream of [child.stdout!, child.stderr!]) {
        let partial = '';
        stream.on('data', (d: Buffer) => {
          const text = partial + d.toString();
          const cut = text.lastIndexOf('\n') + 1;
          partial = text.slice(cut);
          if (cut === 0) return;
          const lines = redact(text.slice(0, cut));
          tail = (tail + lines).slice(-2000);
          o.progress?.write(lines);
        });
      }
      const stop = () => void group.stop(KILL_GRACE_MS);
      const timer = setTimeout(stop, o.maxSeconds * 1000);
      o.signal?.addEventListener('abort', stop, { once: true });
      child.on('error', reject);
      child.on('exit', (c) => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', stop);
        resolve(c ?? 1);
      });
    });
    let text: string;
    try {
      text = readFileSync(summary, 'utf8');
    } catch {
      throw new Error(
        `k6 exited with ${code} and wrote no summary for plan ${o.plan}${tail ? `:\n${tail.trim()}` : ''}`,
      );
    }
    // 0: thresholds held; 99: some crossed (a finding, the verdicts in the JSON say which);
    // anything else with a summary is a run that broke off (killed at the time limit, a script
    // error after the summary), so the result is marked truncated instead of trusted whole.
    const result = JSON.parse(text) as LoadResult;
    if (code !== 0 && code !== 99) {
      result.requests.truncated ??= `k6 exited with ${code}`;
      result.passed = false;
    }
    return result;
  } finally {
    live.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
