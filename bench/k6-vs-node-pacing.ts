/**
 * k6 vs the Node driver, same server, same run: pacing error (actual − scheduled start, p50/p99)
 * and the highest sustained arrival rate on loopback, printed as ratios k6/Node. 2000/s for
 * 0.5 s is Growth's burst (1000 requests). k6 is paced as load/plan-limits.ts paces a burst
 * (bench/k6/pacing.ts); the achieved rate is what was sent over the span from the first slot to
 * the last send. Prints, never asserts. Needs a k6 (K6_BIN, PATH or
 * ../shared/bin/k6); without one it says so and exits 0.
 *
 *   npx tsx bench/k6-vs-node-pacing.ts [--seconds 2]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startService } from '../server/start.ts';
import { findK6 } from '../load/k6-engine.ts';
import { pacedGets } from './lib/paced-gets.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' } } });
const seconds = Number(values.seconds);
const k6 = findK6({ shared: true });
if (!k6) {
  console.log('k6-vs-node-pacing: no k6 (K6_BIN, PATH, ../shared/bin/k6) — skipped');
  process.exit(0);
}

// A huge plan so the limiter never answers 429: the numbers are about the clients alone.
const svc = await startService({ enterprise: { ratePerMin: 6_000_000, burst: 1_000_000 } });
const key = svc.credentials.workspaces.enterprise.keys.full;
const pool = new Pool(svc.baseUrl, { connections: 64, pipelining: 1 });
const script = fileURLToPath(new URL('./k6/pacing.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-k6-'));

interface Row {
  achieved: number;
  p50: number;
  p99: number;
  sent: number;
}

async function node(rate: number, secs: number): Promise<Row> {
  const { n, t0, lastSend, q } = await pacedGets(pool, key, rate, secs);
  return { achieved: sendRate(n, lastSend - t0, rate), p50: q(0.5), p99: q(0.99), sent: n };
}

/** Achieved send rate: n requests over the span from the first slot to the last send. */
function sendRate(n: number, spanMs: number, rate: number): number {
  return n / Math.max(n / rate, spanMs / 1000 + 1 / rate);
}

async function k6Run(rate: number, secs: number): Promise<Row> {
  const out = join(dir, `k6-${rate}.json`);
  const code = await new Promise<number | null>((resolve) => {
    const c = spawn(k6!.path, ['run', '--quiet', script], {
      env: {
        ...process.env,
        K6_NO_USAGE_REPORT: 'true',
        RATE: String(rate),
        SECONDS: String(secs),
        BASE_URL: svc.baseUrl,
        BENCH_KEY: key,
        OUT: out,
      },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const t = setTimeout(() => c.kill('SIGKILL'), 60_000);
    c.on('exit', (x) => {
      clearTimeout(t);
      resolve(x);
    });
  });
  const r = JSON.parse(readFileSync(out, 'utf8')) as {
    sent: number;
    p50: number;
    p99: number;
    sendSpanMs: number;
  };
  if (code !== 0) console.log(`  (k6 exited ${code} at ${rate}/s)`);
  return { achieved: sendRate(r.sent, r.sendSpanMs, rate), p50: r.p50, p99: r.p99, sent: r.sent };
}

console.log(
  `k6 (${k6.path}) vs Node driver on loopback, same server; lag = actual − scheduled start`,
);
console.log('target/s  secs  node ach/s  k6 ach/s  ratio  node p50/p99 ms   k6 p50/p99 ms');
// Sustained: ≥ 95 % of the target sent, p99 lag under the bound. 10 ms is tight pacing; 50 ms
// is half of Growth's refill interval, what B̂'s brackets can absorb.
const BOUNDS = [10, 50] as const;
const sustained = BOUNDS.map(() => ({ node: 0, k6: 0 }));
for (const [rate, secs] of [
  [200, seconds],
  [1000, seconds],
  [2000, 0.5],
  [2000, seconds],
  [4000, seconds],
] as const) {
  const n = await node(rate, secs);
  const k = await k6Run(rate, secs);
  console.log(
    `${String(rate).padStart(8)}  ${String(secs).padStart(4)}  ${n.achieved.toFixed(0).padStart(10)}  ${k.achieved.toFixed(0).padStart(8)}  ${(k.achieved / n.achieved).toFixed(2).padStart(5)}  ${`${n.p50.toFixed(2)}/${n.p99.toFixed(2)}`.padStart(15)}  ${`${k.p50.toFixed(0)}/${k.p99.toFixed(0)}`.padStart(14)}`,
  );
  for (const [i, bound] of BOUNDS.entries()) {
    const s = sustained[i]!;
    if (n.achieved >= 0.95 * rate && n.p99 < bound) s.node = Math.max(s.node, rate);
    if (k.achieved >= 0.95 * rate && k.p99 < bound) s.k6 = Math.max(s.k6, rate);
  }
}
for (const [i, bound] of BOUNDS.entries()) {
  const s = sustained[i]!;
  console.log(
    `max sustained (≥ 95 % of target, p99 lag < ${bound} ms): node ${s.node}/s, k6 ${s.k6}/s, ratio k6/node ${(s.k6 / Math.max(1, s.node)).toFixed(2)}`,
  );
}
await pool.close();
await svc.close();
