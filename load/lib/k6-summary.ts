/**
 * Reads what k6 hands to `handleSummary` back into load/lib's metric reader. k6 has shipped two
 * shapes: the classic object (`metrics: { name: { type, values } }`, `state.testRunDurationMs`,
 * `setup_data`) and the versioned machine-readable summary (`results.metrics: [{ name, type,
 * values }]`, `config.duration` in seconds), opt-in since k6 1.5 and announced as the default
 * for k6 2. Both are accepted, so the judged JSON does not depend on the k6 version; anything
 * else is refused loudly rather than judged as "nothing was sent".
 */
import type { MetricReader, MetricValue } from './metrics.ts';

interface RawMetric {
  type?: unknown;
  values?: Record<string, unknown>;
}

export interface K6SummaryView {
  read: MetricReader;
  /** k6's `dropped_iterations` count (0 when k6 dropped none and so reported none). */
  dropped: number;
  /** Test run duration in seconds, when k6 reports it. */
  wallSeconds: number | undefined;
  /** `setup()`'s return value, when k6 passes it (classic shape). */
  setupData: unknown;
  shape: 'classic' | 'machine-readable';
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

function toValue(m: RawMetric): MetricValue {
  const v = m.values ?? {};
  if (m.type === 'counter') return { count: num(v.count) ?? 0 };
  const out: MetricValue = {
    count: num(v.count),
    min: num(v.min),
    max: num(v.max),
    avg: num(v.avg),
  };
  const p50 = num(v['p(50)']);
  const p99 = num(v['p(99)']);
  if (p50 !== undefined) out.p50 = p50;
  if (p99 !== undefined) out.p99 = p99;
  return out;
}

export function readK6Summary(data: unknown): K6SummaryView {
  if (!isObj(data)) throw new Error('handleSummary: k6 passed no summary object');
  const byName = new Map<string, RawMetric>();
  let shape: K6SummaryView['shape'];
  const results = isObj(data.results) ? data.results : undefined;
  const list = Array.isArray(results?.metrics)
    ? results.metrics
    : Array.isArray(data.metrics)
      ? data.metrics
      : undefined;
  if (list) {
    shape = 'machine-readable';
    for (const m of list) if (isObj(m) && typeof m.name === 'string') byName.set(m.name, m);
  } else if (isObj(data.metrics)) {
    shape = 'classic';
    for (const [name, m] of Object.entries(data.metrics)) if (isObj(m)) byName.set(name, m);
  } else {
    throw new Error(
      `handleSummary: unknown summary shape (top-level keys: ${Object.keys(data).join(', ')})`,
    );
  }
  const read: MetricReader = (name) => {
    const m = byName.get(name);
    return m ? toValue(m) : undefined;
  };
  const state = isObj(data.state) ? data.state : undefined;
  const config = isObj(data.config) ? data.config : undefined;
  const ms = num(state?.testRunDurationMs);
  const durationS = num(config?.duration);
  return {
    read,
    dropped: read('dropped_iterations')?.count ?? 0,
    wallSeconds: ms !== undefined ? ms / 1000 : durationS,
    setupData: data.setup_data,
    shape,
  };
}
