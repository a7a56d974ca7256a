/** Reads a behaviour snapshot (a `snapshot.json`, or a report directory holding one). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BehaviourSnapshot,
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

/** Checks the envelope; a snapshot of another version is refused rather than misread. */
export function asSnapshot(doc: unknown, name = 'snapshot'): BehaviourSnapshot {
  const d = doc as Partial<BehaviourSnapshot> | null;
  if (!d || typeof d !== 'object' || d.schema !== SNAPSHOT_SCHEMA)
    throw new Error(`${name} is not a behaviour snapshot (schema must be '${SNAPSHOT_SCHEMA}')`);
  if (d.version !== SNAPSHOT_VERSION)
    throw new Error(
      `${name} is snapshot version ${String(d.version)}; this harness reads version ${SNAPSHOT_VERSION}${d.version === 1 ? ' (probes by stable id, not label): take a new baseline, docs/usage.md "Refreshing the baseline"' : ''}`,
    );
  if (!d.operations || typeof d.operations !== 'object')
    throw new Error(`${name} has no operations object`);
  return { ...d, gaps: d.gaps ?? {}, limits: d.limits ?? [] } as BehaviourSnapshot;
}
