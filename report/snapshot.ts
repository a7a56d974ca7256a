/**
 * snapshot.json: what the deployment was observed to do — per operation the status codes, the
 * response header names and the inferred body shapes; the observed value of every gap (U-table)
 * the probes saw; the plan-limit estimates. `harness compare` diffs two of these.
 */
import { mergeShapes, shapeOf } from '../core/snapshot/shape.ts';
import {
  type BehaviourSnapshot,
  type ExchangeRow,
  type OperationObservation,
  type PlanLimitObservation,
  type ProbeRow,
  SNAPSHOT_SCHEMA,
  SNAPSHOT_VERSION,
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

export function buildSnapshot(
  target: string,
  exchanges: ExchangeRow[],
  probes: ProbeRow[],
  limits: PlanLimitObservation[] = [],
): BehaviourSnapshot {
  const operations: Record<string, OperationObservation> = {};
  for (const ex of exchanges) {
    if (ex.status === undefined) continue;
    const op = ex.operation ?? `${ex.method} (no operation of the spec)`;
    operations[op] ??= { statuses: {} };
    const o = operations[op];
    o.statuses[String(ex.status)] ??= { count: 0, headers: [], contentTypes: [] };
    const s = o.statuses[String(ex.status)]!;
    s.count++;
    for (const h of Object.keys(ex.headers ?? {})) {
      if (!VOLATILE.has(h) && !s.headers.includes(h)) s.headers.push(h);
    }
    const ct = (ex.headers?.['content-type'] ?? '').split(';')[0]!.trim();
    if (ct && !s.contentTypes.includes(ct)) s.contentTypes.push(ct);
    // A large answer's row carries its shape instead of its body (core/http/exchange-log.ts).
    const shape = ex.shape ?? (ex.json !== undefined ? shapeOf(ex.json) : undefined);
    if (shape !== undefined) s.shape = s.shape ? mergeShapes(s.shape, shape) : shape;
  }
  for (const o of Object.values(operations)) {
    for (const s of Object.values(o.statuses)) {
      s.headers.sort();
      s.contentTypes.sort();
    }
  }
  const gaps: Record<string, Record<string, unknown>> = {};
  const labels: Record<string, Record<string, string>> = {};
  for (const p of probes) {
    gaps[p.gap] ??= {};
    const g = gaps[p.gap]!;
    if (p.label) labels[p.gap] = { ...labels[p.gap], [p.id]: p.label };
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
  const sortKeys = <T>(o: Record<string, T>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    schema: SNAPSHOT_SCHEMA,
    version: SNAPSHOT_VERSION,
    takenAt: new Date().toISOString(),
    target,
    operations: sortKeys(operations),
    gaps: sortKeys(Object.fromEntries(Object.entries(gaps).map(([k, v]) => [k, sortKeys(v)]))),
    ...(Object.keys(labels).length
      ? {
          gapLabels: sortKeys(
            Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, sortKeys(v)])),
          ),
        }
      : {}),
    limits,
  };
}
