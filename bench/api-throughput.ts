/**
 * Throughput of the reference deployment on loopback: requests/s and p99 latency of
 * `GET /v1/tickets` and `POST /v1/tickets` (autocannon), and in the same run the same GET against
 * the Prism mock of `spec/openapi.yaml`, with the ratio reference/Prism. Prints, asserts nothing.
 *
 * Run: npx tsx bench/api-throughput.ts [--duration 5] [--connections 10] [--workers 1] [--no-prism]
 *
 * The load generator runs in worker threads so it does not share the event loop with the
 * reference deployment (which is started in this process); Prism is a child process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { freePort } from '../core/net.ts';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { redact, registerSecret } from '../core/redact.ts';
import { startService } from '../server/start.ts';

/** The part of autocannon's (untyped) API this bench uses. */
interface CannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  workers?: number;
}
interface Histogram {
  average: number;
  /** Latency percentiles are whole milliseconds (autocannon's histogram resolution). */
  p99: number;
}
interface CannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: CannonOptions,
) => Promise<CannonResult>;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    workers: { type: 'string', default: '1' },
    'no-prism': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const workers = Number(values.workers);
if (![duration, connections, workers].every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error('--duration, --connections and --workers must be positive integers');
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const specFile = join(root, 'spec', 'openapi.yaml');
/** `BENCH_PRISM_BIN` points at another Prism executable (default: the project's devDependency). */
const prismBin = process.env.BENCH_PRISM_BIN ?? join(root, 'node_modules', '.bin', 'prism');
const WARMUP_S = 1;
const PRISM = 'prism mock (spec/)';

interface Row {
  target: string;
  request: string;
  result?: CannonResult;
  note?: string;
}

const ticketCreate = JSON.stringify({
  subject: 'Printer on fire',
  requester: { email: 'bench@example.com', name: 'Bench Customer' },
  message: 'It started smoking after the firmware update.',
  priority: 'high',
  tags: ['bench'],
});

async function bench(opts: CannonOptions): Promise<CannonResult> {
  // A short warm-up so JIT and connection setup stay out of the measured window.
  await autocannon({ ...opts, duration: WARMUP_S, connections, workers });
  return autocannon({ ...opts, duration, connections, workers });
}

/** Starts `prism mock` on a loopback port and waits until it answers; throws with its output otherwise. */
async function startPrism(): Promise<{ baseUrl: string; child: ChildProcess }> {
  if (!existsSync(prismBin)) {
    throw new Error(`@stoplight/prism-cli is not installed (${prismBin} missing)`);
  }
  const port = await freePort();
  // Prism logs every request to stdout; ignoring it keeps a full pipe from stalling the mock.
  const child = spawn(prismBin, ['mock', '-h', '127.0.0.1', '-p', String(port), specFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`prism exited with ${child.exitCode}: ${stderr.trim() || '(no output)'}`);
    }
    try {
      await fetch(`${baseUrl}/v1/tickets`, { signal: AbortSignal.timeout(1000) });
      return { baseUrl, child };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  child.kill();
  throw new Error(`prism did not answer within 30 s: ${stderr.trim() || '(no output)'}`);
}

async function stopPrism(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(rows: Row[]): string {
  const head = [
    'target',
    'request',
    'req/s (avg)',
    'avg ms',
    'p99 ms',
    'total',
    'non-2xx',
    'errors',
  ];
  const body = rows.map((r) =>
    r.result
      ? [
          r.target,
          r.request,
          fmt(r.result.requests.average),
          fmt(r.result.latency.average, 2),
          fmt(r.result.latency.p99),
          fmt(r.result.requests.total),
          fmt(r.result.non2xx),
          fmt(r.result.errors + r.result.timeouts),
        ]
      : [r.target, r.request, 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  // Enterprise-like limits far above what loopback can reach: this measures the service, not the limiter.
  const svc = await startService({ enterprise: { ratePerMin: 1e9, burst: 1e9 } });
  const key = svc.credentials.workspaces.enterprise.keys.full;
  registerSecret(key);
  const rows: Row[] = [];
  try {
    const headers = { authorization: `Bearer ${key}` };
    const seedTickets = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await fetch(`${svc.baseUrl}/v1/tickets`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: ticketCreate,
        });
        if (r.status !== 201) throw new Error(`seeding a ticket answered ${r.status}`);
      }
    };
    // One ticket first: Prism answers its one-item example page, so the ratio compares like with like.
    await seedTickets(1);
    process.stderr.write(`reference GET /v1/tickets, 1-ticket page (${duration} s)…\n`);
    rows.push({
      target: 'reference (server/)',
      request: 'GET /v1/tickets (1 ticket)',
      result: await bench({ url: `${svc.baseUrl}/v1/tickets`, headers }),
    });

    const prismRow: Row = { target: PRISM, request: 'GET /v1/tickets (1 ticket)' };
    rows.push(prismRow);
    if (values['no-prism']) prismRow.note = 'skipped (--no-prism)';
    else {
      process.stderr.write(`prism mock GET /v1/tickets (${duration} s)…\n`);
      let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
      try {
        prism = await startPrism();
        // Prism checks only that a bearer token is present, so a placeholder will do.
        prismRow.result = await bench({
          url: `${prism.baseUrl}/v1/tickets`,
          headers: { authorization: 'Bearer bench-placeholder' },
        });
      } catch (err) {
        const msg = redact(String((err as Error).message ?? err))
          .split('\n')[0]!
          .slice(0, 200);
        prismRow.note = `cannot run here: ${msg}`;
      } finally {
        if (prism) await stopPrism(prism.child);
      }
    }

    // A full default page (25, docs/assumptions.md U4): what a real client listing tickets mostly gets.
    await seedTickets(24);
    process.stderr.write(`reference GET /v1/tickets, 25-ticket page (${duration} s)…\n`);
    rows.push({
      target: 'reference (server/)',
      request: 'GET /v1/tickets (25 tickets)',
      result: await bench({ url: `${svc.baseUrl}/v1/tickets`, headers }),
    });

    // POST last: every create grows the store the GET above would have to scan.
    process.stderr.write(`reference POST /v1/tickets (${duration} s)…\n`);
    rows.push({
      target: 'reference (server/)',
      request: 'POST /v1/tickets',
      result: await bench({
        url: `${svc.baseUrl}/v1/tickets`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: ticketCreate,
      }),
    });
  } finally {
    await svc.close();
  }

  const out: string[] = [
    '',
    `API throughput on loopback — autocannon, ${connections} connections, ${duration} s per row after ${WARMUP_S} s warm-up, ${workers} worker thread(s)`,
    'reference = the reference deployment (server/, Fastify, in this process, Enterprise key with a 1e9/min limit)',
    'prism mock = `prism mock spec/openapi.yaml` (@stoplight/prism-cli 5.14.2, child process; its example page holds 1 ticket)',
    `machine: ${cpus().length} CPU(s), load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end — loopback numbers move with it`,
    '',
    table(rows),
    '',
    ...rows.filter((r) => r.note).map((r) => `${r.target} ${r.request}: ${r.note}`),
  ];
  const ref = rows[0]?.result;
  const prism = rows[1]?.result;
  if (ref && prism && prism.requests.average > 0) {
    const ratio = ref.requests.average / prism.requests.average;
    out.push(
      `GET /v1/tickets req/s ratio reference/prism (1-ticket page each): ${fmt(ratio, 1)}× (target ≥ 10×: ${ratio >= 10 ? 'met' : 'NOT met'})`,
    );
    if (prism.non2xx > 0) out.push(`note: prism answered ${fmt(prism.non2xx)} non-2xx responses`);
  } else {
    out.push('GET /v1/tickets ratio reference/prism: not available (prism not measured)');
  }
  for (const r of rows) {
    if (r.result && r.result.non2xx + r.result.errors > 0 && !r.target.startsWith('prism')) {
      out.push(`note: ${r.target} ${r.request} had non-2xx or errors; its numbers are suspect`);
    }
  }
  out.push(`bench wall time: ${fmt((Date.now() - started) / 1000, 1)} s`, '');
  process.stdout.write(redact(out.join('\n')));
}

await main();
