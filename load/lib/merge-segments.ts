/**
 * Several load generators (k6 execution segments, k6-operator instances) each hand over their
 * own summary; one plan is judged on their merge. Counters add up; trends merge as k6 keeps
 * them for the stats we ask for (count, min, max, avg: avg weighted by count). Every time in
 * the samples is "server seconds since t0", so the segments must share t0 (k6-operator runs
 * setup() once and hands its data to every instance) and clocks synchronised far below one
 * refill interval (1/r: 0.5 s for Team, 0.1 s for Growth), or S1's span and S2's accept times
 * are not comparable.
 */
import type { K6SummaryView } from './k6-summary.ts';
import { isTrendName, type MetricReader, type MetricValue } from './metrics.ts';

function mergeValues(name: string, values: MetricValue[]): MetricValue | undefined {
  if (values.length === 0) return undefined;
  if (!isTrendName(name)) return { count: values.reduce((n, v) => n + (v.count ?? 0), 0) };
  const count = values.reduce((n, v) => n + (v.count ?? 0), 0);
  const weighted = values.reduce((s, v) => s + (v.avg ?? 0) * (v.count ?? 0), 0);
  const mins = values.map((v) => v.min).filter((x): x is number => x !== undefined);
  const maxs = values.map((v) => v.max).filter((x): x is number => x !== undefined);
  return {
    count,
    ...(count > 0 ? { avg: weighted / count } : {}),
    ...(mins.length ? { min: Math.min(...mins) } : {}),
    ...(maxs.length ? { max: Math.max(...maxs) } : {}),
  };
}

export function mergeMetricReaders(readers: readonly MetricReader[]): MetricReader {
  return (name) =>
    mergeValues(
      name,
      readers.map((r) => r(name)).filter((v): v is MetricValue => v !== undefined),
    );
}

/** One summary view from the segments' views (same plan, same t0). */
export function mergeK6Summaries(views: readonly K6SummaryView[]): K6SummaryView {
  if (views.length === 0) throw new Error('mergeK6Summaries: no segment summaries');
  const walls = views.map((v) => v.wallSeconds).filter((w): w is number => w !== undefined);
  return {
    read: mergeMetricReaders(views.map((v) => v.read)),
    dropped: views.reduce((n, v) => n + v.dropped, 0),
    wallSeconds: walls.length ? Math.max(...walls) : undefined,
    setupData: views[0]!.setupData,
    shape: views[0]!.shape,
  };
}
