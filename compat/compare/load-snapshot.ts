/** Reads a behaviour snapshot (a `snapshot.json`, or a report directory holding one). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BehaviourSnapshot,
  type Measurement,
  type PlanLimitObservation,
  READABLE_SNAPSHOT_VERSIONS,
  SNAPSHOT_SCHEMA,
  SNAPSHOT_VERSION,
} from '../../core/snapshot/types.ts';

export function loadSnapshot(path: string): BehaviourSnapshot {
  const file =
    existsSync(path) && statSync(path).isDirectory() ? join(path, 'snapshot.json') : path;
  if (!existsSync(file)) throw new Error(`no snapshot at ${file} (write one with harness run)`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not JSON: ${(e as Error).message}`);
  }
  return asSnapshot(doc, file);
}

/**
 * Checks the envelope; a snapshot of a version it cannot read is refused rather than misread.
 * Version 2 is read as it was written: limits as bare rounded numbers (they become measurements
 * without an interval), no record of what was exercised (compare-snapshots.ts says what then).
 */
export function asSnapshot(doc: unknown, name = 'snapshot'): BehaviourSnapshot {
  const d = doc as Partial<BehaviourSnapshot> | null;
  if (!d || typeof d !== 'object' || d.schema !== SNAPSHOT_SCHEMA)
    throw new Error(`${name} is not a behaviour snapshot (schema must be '${SNAPSHOT_SCHEMA}')`);
  if (!READABLE_SNAPSHOT_VERSIONS.includes(d.version as number))
    throw new Error(
      `${name} is snapshot version ${String(d.version)}; this harness reads versions ${READABLE_SNAPSHOT_VERSIONS.join(' and ')}${(d.version as number) < SNAPSHOT_VERSION ? ': take a new baseline, docs/usage.md "Refreshing the baseline"' : ''}`,
    );
  if (!d.operations || typeof d.operations !== 'object')
    throw new Error(`${name} has no operations object`);
  if (d.limits !== undefined && !Array.isArray(d.limits))
    throw new Error(`${name} has a limits member that is not a list`);
  return {
    ...d,
    gaps: d.gaps ?? {},
    limits: (d.limits ?? []).map(limitOf),
  } as BehaviourSnapshot;
}

/** A version 2 limit's bare number is a measurement without an interval. */
function measurementOf(v: unknown): Measurement | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : undefined;
  if (v && typeof v === 'object' && typeof (v as Measurement).value === 'number')
    return v as Measurement;
  return undefined;
}

function limitOf(l: PlanLimitObservation): PlanLimitObservation {
  const { burst, ratePerMin, ...rest } = l as PlanLimitObservation & Record<string, unknown>;
  const b = measurementOf(burst);
  const r = measurementOf(ratePerMin);
  return { ...rest, ...(b ? { burst: b } : {}), ...(r ? { ratePerMin: r } : {}) };
}
