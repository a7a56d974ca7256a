/**
 * A Node engine run judged: its samples aggregated and judged by load/lib (the judgement k6's
 * handleSummary runs), with the accepted-requests series for the chart and the pacing lag.
 */
import {
  aggregateSamples,
  factContext,
  judgeRun,
  type LoadResult,
  type Schedule,
  thinSeries,
} from './lib/index.ts';
import { performance } from '../core/http/pacer.ts';
import type { PlanSender } from './plan-sender.ts';

export function judgeNodeRun(
  sender: PlanSender,
  run: { schedule: Schedule; lagsMs: number[] },
  target: { baseUrl: URL; keys: number; budget: number; startedAt: string },
): LoadResult {
  const { schedule } = run;
  const aggregates = aggregateSamples(sender.samples, factContext(schedule));
  const observedSeries = thinSeries(acceptedSeries(sender), 600);
  const result = judgeRun({
    engine: 'node',
    schedule,
    aggregates,
    baseUrl: target.baseUrl.origin,
    keys: target.keys,
    startedAt: target.startedAt,
    wallSeconds: (performance.now() - sender.wall0) / 1000,
    dropped: sender.dropped,
    budget: target.budget,
    truncated: sender.truncated ?? null,
    observedSeries,
  });
  result.requests.pacing = pacingStats(run.lagsMs);
  return result;
}

/** Accepted requests of the first key so far, at the midpoint of each request, in send order. */
function acceptedSeries(sender: PlanSender): Array<[number, number]> {
  const observed: Array<[number, number]> = [];
  let n = 0;
  for (const s of sender.samples
    .filter((x) => x.key === 0 && x.status >= 200 && x.status < 400)
    .sort((a, b) => a.sentS - b.sentS)) {
    n += 1;
    observed.push([(s.sentS + s.recvS) / 2, n]);
  }
  return observed;
}

function pacingStats(lags: readonly number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  if (lags.length === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0 };
  const s = [...lags].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return { p50Ms: r(q(0.5)), p99Ms: r(q(0.99)), maxMs: r(s[s.length - 1]!) };
}
