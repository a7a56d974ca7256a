/**
 * A spec finding in the run's one failure shape: what the new version has, held to what the old
 * one promised (documented, or our assumption where the element is marked assumed), and the
 * operations it reaches.
 */
import type { LeveledFailure } from '../../core/level.ts';
import { ruleSummary } from './rules.ts';
import type { Finding } from './types.ts';

export function diffFailure(f: Finding): LeveledFailure {
  return {
    check: `diff-spec.${f.rule}`,
    provenance: f.assumed ? 'assumed' : 'documented',
    level: f.level,
    rule: ruleSummary(f.rule) ?? f.rule,
    received: `${f.message} (new: ${f.new ?? 'removed'}${f.where.length ? `; reaches ${f.where.join(', ')}` : ''})`,
    expected: `old: ${f.old ?? 'absent'}${f.assumed ? ` (x-provenance: assumed at ${f.assumed.pointer}${f.assumed.gap ? `, ${f.assumed.gap}` : ''})` : ''}`,
  };
}
