/**
 * A behaviour finding in the run's one failure shape: what this run observed, held to what the
 * baseline observed (provenance `observed`: a change, not a broken documented rule).
 */
import type { LeveledFailure } from '../../core/level.ts';
import { valueText, whereText } from '../../core/compatibility.ts';
import { RULES, type RuleId } from './rules.ts';
import type { CompareFinding } from './types.ts';

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
