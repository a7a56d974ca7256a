/**
 * What the plan-limit load run observed about the rate-limit gaps (U22 429/Retry-After, U23 the
 * Reset unit, U24 the algorithm, U25 the key scope): every load verdict that fills a gap, per
 * plan, for the Gaps table — so a run that measured them never says "not observed".
 */

/**
 * What the reports show of one plan-limit result (the load area's `details`: load/lib/result.ts
 * `LoadResult`, which is one). report/ may not import load/, so it names the fields it reads.
 */
export interface LoadView {
  plan: string;
  limits: { burst: number; ratePerMin: number };
  estimates: {
    burst: { value: number | null; uncertainty: number } | null;
    rate: { perMin: number };
  };
  limiter: { algorithm: string };
  resetUnit: { unit: string };
  scope: { scope: string };
  verdicts: ReadonlyArray<{ gap?: string; status: string; title: string; observed: string }>;
}

/** gap → "<plan>: <what was judged>" → what was observed (and how it was judged, unless pass). */
export function loadGaps(results: readonly LoadView[]): Record<string, Record<string, string>> {
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
