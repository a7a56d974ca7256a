/**
 * The compatibility section of `harness run`: the fresh snapshot against a committed baseline
 * (by default the reference deployment's), so every report shows what changed since.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BehaviourSnapshot } from '../../core/snapshot/types.ts';
import { compareBehaviour } from './compare-snapshots.ts';
import { countByLevel } from '../../core/level.ts';
import { renderCompare } from '../findings/views.ts';
import { loadSnapshot } from './load-snapshot.ts';
import type { CompatibilityReport } from '../../core/compatibility.ts';
import type { CompareOptions } from './types.ts';

/** `reports/baselines/reference.snapshot.json`: a full `harness run` of the reference deployment. */
export const REFERENCE_BASELINE = fileURLToPath(
  new URL('../../reports/baselines/reference.snapshot.json', import.meta.url),
);

/**
 * Compares `current` with the baseline at `path` (default: the reference baseline). Returns
 * undefined when there is no baseline; `path` of `off` or `none` turns the comparison off.
 */
export function compareWithBaseline(
  current: BehaviourSnapshot,
  path: string | undefined = REFERENCE_BASELINE,
  opts: CompareOptions = {},
): CompatibilityReport | undefined {
  const file = path || REFERENCE_BASELINE;
  if (file === 'off' || file === 'none' || !existsSync(file)) return undefined;
  const name = relative(process.cwd(), file) || file;
  let base: BehaviourSnapshot;
  try {
    base = loadSnapshot(file);
  } catch (e) {
    const error = (e as Error).message;
    const counts = { ERR: 0, WARN: 0, INFO: 0 };
    return { baseline: name, baselineTakenAt: '', counts, findings: [], markdown: error, error };
  }
  const { findings, notes } = compareBehaviour(base, current, opts);
  const partial = opts.partial ?? current.exercised?.grep !== undefined;
  return {
    baseline: name,
    baselineTakenAt: base.takenAt,
    counts: countByLevel(findings),
    findings,
    markdown: renderCompare('md', findings, name, 'this run', undefined, notes),
    ...(partial ? { partial: true } : {}),
    ...(notes.length ? { notes } : {}),
  };
}
