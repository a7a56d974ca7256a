/**
 * A leveled finding in the run's one failure shape (core/checks/types.ts), for both tools:
 *   - a spec finding: what the new version has, held to what the old one promised (documented,
 *     or our assumption where the element is marked assumed), and the operations it reaches;
 *   - a behaviour finding: what this run observed, held to what the baseline observed
 *     (provenance `observed`: a change, not a broken documented rule).
 */
import { valueText, whereText } from '../../core/compatibility.ts';
import type { LeveledFailure } from '../../core/level.ts';
import { RULES, type RuleId } from '../compare/rules.ts';
import type { CompareFinding } from '../compare/types.ts';
import { ruleSummary } from '../diff/rules.ts';
import type { Finding } from '../diff/types.ts';

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

export function compareFailure(f: CompareFinding): LeveledFailure {
  return {
    check: `compare.${f.rule}`,
    provenance: 'observed',
    level: f.level,
    rule: RULES[f.rule as RuleId]?.what ?? f.rule,
    received: `${f.message} (at ${whereText(f.pointer)}; now ${valueText(f.current, 500)})`,
    expected: valueText(f.baseline, 500),
  };
}
