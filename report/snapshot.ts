/**
 * snapshot.json: what the deployment was observed to do — per operation the status codes, the
 * response header names and the inferred body shapes; the observed value of every gap (U-table)
 * the probes saw; the plan-limit measurements — and what the run exercised to see it: which
 * tests ran, which test saw each status (and, where tests saw different things, what each saw)
 * and recorded each probe. `harness compare` diffs two of these, keeping to what both exercised.
 */
import { mergeShapes, shapeOf } from '../core/snapshot/shape.ts';
import {
  type BehaviourSnapshot,
  type ExchangeRow,
  type Exercised,
  type OperationObservation,
  type PlanLimitObservation,
  type ProbeRow,
  SNAPSHOT_SCHEMA,
  SNAPSHOT_VERSION,
  type StatusObservation,
  type StatusView,
} from '../core/snapshot/types.ts';

/** Headers whose presence varies per request and says nothing about the contract. */
const VOLATILE = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'etag',
]);

const sortKeys = <T>(o: Record<string, T>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort((a, b) => a.localeCompare(b));

/** What several answers of one status carried together: names united, shapes merged. */
function mergeViews(views: readonly StatusView[]): StatusView {
  const out: StatusView = {
    headers: sorted(views.flatMap((v) => v.headers)),
    contentTypes: sorted(views.flatMap((v) => v.contentTypes)),
  };
  for (const v of views)
    if (v.shape !== undefined) out.shape = out.shape ? mergeShapes(out.shape, v.shape) : v.shape;
  return out;
}

function viewOf(ex: ExchangeRow): StatusView {
  const ct = (ex.headers?.['content-type'] ?? '').split(';')[0]!.trim();
  return {
    headers: Object.keys(ex.headers ?? {}).filter((h) => !VOLATILE.has(h)),
    contentTypes: ct ? [ct] : [],
    // A large answer's row carries its shape instead of its body (core/http/exchange-log.ts).
    ...(ex.shape !== undefined
      ? { shape: ex.shape }
      : ex.json !== undefined
        ? { shape: shapeOf(ex.json) }
        : {}),
  };
}

export function buildSnapshot(
  target: string,
  exchanges: ExchangeRow[],
  probes: ProbeRow[],
  limits: PlanLimitObservation[] = [],
  exercised?: Exercised,
): BehaviourSnapshot {
  const seen = new Map<string, Map<string, { views: StatusView[]; tests: Set<string> }>>();
  for (const ex of exchanges) {
    if (ex.status === undefined) continue;
    const op = ex.operation ?? `${ex.method} (no operation of the spec)`;
    const byStatus = seen.get(op) ?? new Map<string, { views: StatusView[]; tests: Set<string> }>();
    seen.set(op, byStatus);
    const s = byStatus.get(String(ex.status)) ?? { views: [], tests: new Set<string>() };
    byStatus.set(String(ex.status), s);
    s.views.push(viewOf(ex));
    s.tests.add(ex.test);
  }
  const operations: Record<string, OperationObservation> = {};
  for (const [op, byStatus] of seen) {
    const statuses: Record<string, StatusObservation> = {};
    for (const [status, { views, tests }] of byStatus) {
      const all = mergeViews(views);
      const sometimes = all.headers.filter((h) => views.some((v) => !v.headers.includes(h)));
      statuses[status] = {
        count: views.length,
        headers: all.headers,
        contentTypes: all.contentTypes,
        ...(all.shape !== undefined ? { shape: all.shape } : {}),
        tests: sorted(tests),
        ...(sometimes.length ? { sometimes } : {}),
      };
    }
    operations[op] = { statuses: sortKeys(statuses) };
  }
  const gaps: Record<string, Record<string, unknown>> = {};
  const labels: Record<string, Record<string, string>> = {};
  const probedBy: Record<string, Record<string, string[]>> = {};
  for (const p of probes) {
    gaps[p.gap] ??= {};
    const g = gaps[p.gap]!;
    if (p.label) labels[p.gap] = { ...labels[p.gap], [p.id]: p.label };
    probedBy[p.gap] = {
      ...probedBy[p.gap],
      [p.id]: sorted([...(probedBy[p.gap]?.[p.id] ?? []), p.test]),
    };
    const prev = g[p.id];
    if (prev === undefined) g[p.id] = p.value;
    else if (JSON.stringify(prev) !== JSON.stringify(p.value)) {
      const all = Array.isArray((prev as { varies?: unknown[] })?.varies)
        ? (prev as { varies: unknown[] }).varies
        : [prev];
      if (!all.some((v) => JSON.stringify(v) === JSON.stringify(p.value))) all.push(p.value);
      g[p.id] = { varies: all };
    }
  }
  const nested = <T>(o: Record<string, Record<string, T>>) =>
    sortKeys(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, sortKeys(v)])));
  return {
    schema: SNAPSHOT_SCHEMA,
    version: SNAPSHOT_VERSION,
    takenAt: new Date().toISOString(),
    target,
    ...(exercised
      ? {
          exercised: {
            ...exercised,
            areas: sorted(exercised.areas),
            tests: sorted(exercised.tests),
          },
        }
      : {}),
    operations: sortKeys(operations),
    gaps: nested(gaps),
    ...(Object.keys(labels).length ? { gapLabels: nested(labels) } : {}),
    ...(Object.keys(probedBy).length ? { probedBy: nested(probedBy) } : {}),
    limits,
  };
}
