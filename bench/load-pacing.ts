/**
 * Node driver pacing on loopback against the reference deployment: how far actual send times
 * drift from t0 + i/λ (p50, p99, max) at increasing rates, and the highest rate it sustains
 * (achieved ≥ 95 % of the target with p99 lag under 10 ms). Prints, never asserts — set it
 * beside `k6 run` on the same machine.
 *
 *   npx tsx bench/load-pacing.ts [--seconds 2]
 */
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startService } from '../server/start.ts';
import { pacedGets } from './lib/paced-gets.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' } } });
const seconds = Number(values.seconds);

// A huge plan so the limiter never answers 429 and the numbers are about the client alone.
const svc = await startService({ enterprise: { ratePerMin: 6_000_000, burst: 1_000_000 } });
const key = svc.credentials.workspaces.enterprise.keys.full;
const pool = new Pool(svc.baseUrl, { connections: 64, pipelining: 1 });

async function paced(rate: number) {
  const { n, t0, answeredAt, lags, q, statusOther } = await pacedGets(pool, key, rate, seconds);
  const achieved = n / ((answeredAt - t0) / 1000);
  return { rate, n, achieved, p50: q(0.5), p99: q(0.99), max: lags[lags.length - 1]!, statusOther };
}

console.log(`pacing on loopback, ${seconds} s per rate (lag = actual − scheduled send time)`);
console.log('target/s  sent   achieved/s  lag p50 ms  lag p99 ms  lag max ms  non-200');
let sustained = 0;
for (const rate of [50, 200, 1000, 2000, 4000, 8000, 16000]) {
  const r = await paced(rate);
  console.log(
    `${String(rate).padStart(8)}  ${String(r.n).padStart(5)}  ${r.achieved.toFixed(0).padStart(10)}  ${r.p50.toFixed(3).padStart(10)}  ${r.p99.toFixed(3).padStart(10)}  ${r.max.toFixed(3).padStart(10)}  ${String(r.statusOther).padStart(7)}`,
  );
  if (r.achieved >= 0.95 * rate && r.p99 < 10) sustained = rate;
}
console.log(`max sustained rate (≥ 95 % of target, p99 lag < 10 ms): ${sustained}/s`);
await pool.close();
await svc.close();
