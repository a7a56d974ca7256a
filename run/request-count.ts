/**
 * How many requests a gate run sent to the API, per area and in total — the cost of a run to a
 * shared staging key, printed as one line and kept in summary.json (`requests`). Contracts: what
 * each Playwright worker's rate budgets counted (raw/requests-<pid>.jsonl, clean-up included);
 * fuzz: the harness process's budgets over the fuzz area; load: the plan runs' own counts (they
 * provoke 429s on purpose, on their plan keys, and are not paced: their 429s are counted apart,
 * so the line never reads "0× 429" beside a load area that received thousands). The preflight's
 * one request is not counted.
 */
import { readJsonl } from '../contracts/collect.ts';
import { join } from 'node:path';
import { addRateStats, emptyRateStats, type RateStats } from '../core/http/rate-budget.ts';
import type { RequestCount } from '../report/summary.ts';
import type { LoadResult } from '../load/lib/result.ts';

/** The contract workers' request statistics, summed (none written: zero). */
export function contractRequestStats(out: string): RateStats {
  return readJsonl<Partial<RateStats>>(join(out, 'raw'), 'requests-').reduce<RateStats>(
    (s, r) => addRateStats(s, r),
    emptyRateStats(),
  );
}

/** What a process's budgets counted between two readings. */
export const statsSince = (now: RateStats, then: RateStats): RateStats =>
  addRateStats(now, then, -1);

/** What the load area's plan runs sent, and the 429s they provoked. */
export interface LoadCount {
  sent: number;
  rateLimited: number;
}

/** The load area's count from its plan runs' results. */
export function loadCount(results: readonly LoadResult[]): LoadCount {
  let sent = 0;
  let rateLimited = 0;
  for (const r of results) {
    sent += r.requests.sent;
    for (const p of r.phases) rateLimited += p.rejected;
  }
  return { sent, rateLimited };
}

/** The run's count from the paced areas' statistics and the load area's own count. */
export function requestCount(
  paced: Record<string, RateStats | undefined>,
  load?: LoadCount,
): RequestCount {
  const byArea: Record<string, number> = {};
  let all = emptyRateStats();
  for (const [area, s] of Object.entries(paced)) {
    if (!s) continue;
    byArea[area] = s.sent;
    all = addRateStats(all, s);
  }
  if (load !== undefined) byArea.load = load.sent;
  return {
    total: all.sent + (load?.sent ?? 0),
    byArea,
    rateLimited: all.rateLimited,
    ...(load !== undefined ? { loadRateLimited: load.rateLimited } : {}),
    waitedS: Math.round(all.waitedMs / 100) / 10,
    inconclusive: all.inconclusive,
  };
}

/** The console line: `requests sent: contracts 251 · fuzz 283 · total 534 (…)`. */
export function requestLine(c: RequestCount): string {
  const areas = Object.entries(c.byArea).map(([a, n]) => `${a} ${n}`);
  const paced = Object.keys(c.byArea).filter((a) => a !== 'load');
  const rate = [
    // The load area's 429s are the point of its measurement; the paced areas' are the cost.
    ...(c.loadRateLimited !== undefined
      ? [
          `${c.loadRateLimited}× 429 provoked by the load area on its plan keys`,
          ...(paced.length ? [`${c.rateLimited}× 429 received by ${paced.join(' and ')}`] : []),
        ]
      : [`${c.rateLimited}× 429 received`]),
    `waited ${c.waitedS.toFixed(1)} s for the rate limit`,
    ...(c.inconclusive ? [`${c.inconclusive} given up (inconclusive)`] : []),
  ];
  return `requests sent: ${[...areas, `total ${c.total}`].join(' · ')} (${rate.join(', ')})`;
}
