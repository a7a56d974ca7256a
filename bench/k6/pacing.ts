/*
 * k6 side of bench/k6-vs-node-pacing.ts: RATE requests per second for SECONDS on loopback, paced
 * as load/plan-limits.ts paces a burst — shared-iterations with every VU started up front, each
 * iteration waiting for its slot `scenario start + i / RATE` — so what is measured is the
 * harness's own k6 design. Lag = actual − scheduled send time (k6's Date.now has millisecond
 * resolution, so lags below 1 ms read as 0 or 1). Nothing is ever dropped: a k6 that cannot keep
 * up sends late, which shows in the lag and the achieved rate.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';

const RATE = Number(__ENV.RATE ?? '1000');
const SECONDS = Number(__ENV.SECONDS ?? '2');
const COUNT = Math.max(1, Math.round(RATE * SECONDS));
const lag = new Trend('pacing_lag_ms');
const non200 = new Counter('pacing_non200');
const last = new Trend('pacing_last_send_ms');

export const options: Options = {
  scenarios: {
    paced: {
      executor: 'shared-iterations',
      iterations: COUNT,
      // As plan-limits.ts sizes a burst: rate × 2 × 50 ms expected round trip, + 5.
      vus: Math.min(COUNT, Math.ceil(RATE * 0.1) + 5),
      maxDuration: `${Math.ceil(SECONDS * 3 + 10)}s`,
    },
  },
  summaryTrendStats: ['p(50)', 'p(99)', 'max', 'count'],
};

export default function (): void {
  const due = exec.scenario.startTime + (exec.scenario.iterationInTest * 1000) / RATE;
  const wait = due - Date.now();
  if (wait > 0) sleep(wait / 1000);
  lag.add(Math.max(0, Date.now() - due));
  last.add(Date.now() - exec.scenario.startTime);
  const res = http.get(`${__ENV.BASE_URL}/v1/tickets?limit=1`, {
    headers: { Authorization: `Bearer ${__ENV.BENCH_KEY}` },
  });
  if (res.status !== 200) non200.add(1);
}

export function handleSummary(data: {
  metrics: Record<string, { values: Record<string, number> }>;
}): Record<string, string> {
  const v = (m: string, s: string) => data.metrics[m]?.values[s] ?? 0;
  return {
    [__ENV.OUT ?? 'stdout']: JSON.stringify({
      sent: v('http_reqs', 'count'),
      p50: v('pacing_lag_ms', 'p(50)'),
      p99: v('pacing_lag_ms', 'p(99)'),
      max: v('pacing_lag_ms', 'max'),
      non200: v('pacing_non200', 'count'),
      // The span from the first slot to the last send: the achieved rate is sent over it.
      sendSpanMs: v('pacing_last_send_ms', 'max'),
    }),
  };
}
