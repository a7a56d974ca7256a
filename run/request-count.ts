/**
 * How many requests a gate run sent to the API, per area and in total — the cost of a run to a
 * shared staging key, printed as one line and kept in summary.json (`requests`). Contracts: what
 * each Playwright worker's rate budgets counted (raw/requests-<pid>.jsonl, clean-up included);
 * fuzz: the harness process's budgets over the fuzz area; load: the plan runs' own counts (they
 * provoke 429s on purpose, on their plan keys, and are not paced). The preflight's one request
 * is not counted.
 */
import { readJsonl } from '../contracts/collect.ts';
import { join } from 'node:path';
import { addRateStats, emptyRateStats, type RateStats } from '../core/http/rate-budget.ts';
import type { RequestCount } from '../report/summary.ts';

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

/** The run's count from the paced areas' statistics and the load area's plain count. */
export function requestCount(
  paced: Record<string, RateStats | undefined>,
  load?: number,
): RequestCount {
  const byArea: Record<string, number> = {};
  let all = emptyRateStats();
  for (const [area, s] of Object.entries(paced)) {
    if (!s) continue;
    byArea[area] = s.sent;
    all = addRateStats(all, s);
  }
  if (load !== undefined) byArea.load = load;
  return {
    total: all.sent + (load ?? 0),
    byArea,
    rateLimited: all.rateLimited,
    waitedS: Math.round(all.waitedMs / 100) / 10,
    inconclusive: all.inconclusive,
  };
}

/** The console line: `requests sent: contracts 251 · fuzz 283 · total 534 (…)`. */
export function requestLine(c: RequestCount): string {
  const areas = Object.entries(c.byArea).map(([a, n]) => `${a} ${n}`);
  const rate = [
    `${c.rateLimited}× 429 received`,
    `waited ${c.waitedS.toFixed(1)} s for the rate limit`,
    ...(c.inconclusive ? [`${c.inconclusive} given up (inconclusive)`] : []),
  ];
  return `requests sent: ${[...areas, `total ${c.total}`].join(' · ')} (${rate.join(', ')})`;
}
