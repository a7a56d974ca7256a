/*
 * k6 side of bench/k6-vs-node-pacing.ts: RATE requests per second for SECONDS on loopback; each
 * iteration records how late it started against scenario start + i/RATE (k6's Date.now has
 * millisecond resolution, so lags below 1 ms read as 0 or 1).
 */
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';

const RATE = Number(__ENV.RATE ?? '1000');
const SECONDS = Number(__ENV.SECONDS ?? '2');
const lag = new Trend('pacing_lag_ms');
const non200 = new Counter('pacing_non200');

export const options: Options = {
  scenarios: {
    paced: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: `${SECONDS}s`,
      preAllocatedVUs: Math.ceil(RATE * 0.05) + 10,
      maxVUs: Math.ceil(RATE * 0.2) + 20,
    },
  },
  summaryTrendStats: ['p(50)', 'p(99)', 'max', 'count'],
};

export default function (): void {
  const due = exec.scenario.startTime + (exec.scenario.iterationInTest * 1000) / RATE;
  lag.add(Date.now() - due);
  const res = http.get(`${__ENV.BASE_URL}/v1/tickets?limit=1`, {
    headers: { Authorization: `Bearer ${__ENV.BENCH_KEY}` },
  });
  if (res.status !== 200) non200.add(1);
}

export function handleSummary(data: {
  metrics: Record<string, { values: Record<string, number> }>;
  state: { testRunDurationMs: number };
}): Record<string, string> {
  const v = (m: string, s: string) => data.metrics[m]?.values[s] ?? 0;
  return {
    [__ENV.OUT ?? 'stdout']: JSON.stringify({
      sent: v('http_reqs', 'count'),
      dropped: v('dropped_iterations', 'count'),
      p50: v('pacing_lag_ms', 'p(50)'),
      p99: v('pacing_lag_ms', 'p(99)'),
      max: v('pacing_lag_ms', 'max'),
      non200: v('pacing_non200', 'count'),
      seconds: data.state.testRunDurationMs / 1000,
    }),
  };
}
