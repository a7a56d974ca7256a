/**
 * What the plan-limit load run observed about the rate-limit gaps (U22 429/Retry-After, U23 the
 * Reset unit, U24 the algorithm, U25 the key scope): every load verdict that fills a gap, per
 * plan, for the Gaps table — so a run that measured them never says "not observed".
 */
import type { LoadResult } from '../load/lib/result.ts';

/** gap → "<plan>: <what was judged>" → what was observed (and how it was judged, unless pass). */
export function loadGaps(results: readonly LoadResult[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of results) {
    for (const v of r.verdicts) {
      if (!v.gap || v.status === 'skipped') continue;
      out[v.gap] ??= {};
      out[v.gap]![`${r.plan}: ${v.title}`] =
        `${v.observed}${v.status === 'pass' ? '' : ` (${v.status})`}`;
    }
  }
  return out;
}
