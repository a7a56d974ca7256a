/**
 * Levels of a finding for existing clients, shared by `harness diff-spec` (spec changes) and
 * `harness compare` (behaviour changes), and the `--fail-on` threshold over them.
 */
import type { Failure } from './checks/types.ts';

export type Level = 'ERR' | 'WARN' | 'INFO';

/** Most severe first: the order reports list them in. */
export const LEVELS: readonly Level[] = ['ERR', 'WARN', 'INFO'];

/** Ordering used by `--fail-on`: a finding fails the run when its rank is at least the threshold's. */
export const LEVEL_RANK: Record<Level, number> = { INFO: 0, WARN: 1, ERR: 2 };

/** A finding in the run's one failure shape (core/checks/types.ts), with its level. */
export interface LeveledFailure extends Failure {
  level: Level;
}

/** Anything with a level: a spec finding or a behaviour finding. */
export interface Leveled {
  level: Level;
}

export function countByLevel(findings: readonly Leveled[]): Record<Level, number> {
  const c: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const f of findings) c[f.level]++;
  return c;
}

export function failing<F extends Leveled>(findings: readonly F[], failOn: Level = 'ERR'): F[] {
  return findings.filter((f) => LEVEL_RANK[f.level] >= LEVEL_RANK[failOn]);
}
