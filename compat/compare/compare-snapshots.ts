/**
 * `compareBehaviour(baseline, current)`: what a deployment now does differently from a baseline
 * snapshot — statuses, header names, content types and inferred body shapes per operation, the
 * observed gap values (U-table) and the plan-limit measurements — and, as notes, what was left
 * out of the comparison and why. Every finding is `observed`.
 *
 * Only what both runs observed is compared: both sides keep to what the contract tests both ran
 * saw (exercised.ts) — and between runs of different tests, what the baseline saw only sometimes
 * is not read as gone (rules.ts `weak`); plan limits are compared only when both runs measured
 * them, and a measurement by its interval (compare-limits.ts). Only behaviour is compared, never run-to-run noise:
 * counts, timestamps and the target name are ignored; `integer` and `number` are one type; an
 * array seen only empty says nothing about its items.
 *
 * A version 2 snapshot does not record which test saw what: against one, a current run that ran
 * only part of the suite (`--grep`, or `partial`) reads nothing as gone — each such difference is
 * a note — and everything both saw is compared as before.
 */
import type { CompareNote } from '../../core/compatibility.ts';
import type { BehaviourSnapshot } from '../../core/snapshot/types.ts';
import { compareGaps } from './compare-gaps.ts';
import { compareLimits } from './compare-limits.ts';
import { compareOperations } from './compare-operations.ts';
import { commonTests, keepProbesToTests, keepToTests } from './exercised.ts';
import { Findings } from './rules.ts';
import type { CompareFinding, CompareOptions } from './types.ts';

export interface BehaviourComparison {
  findings: CompareFinding[];
  notes: CompareNote[];
}

export function compareBehaviour(
  baseline: BehaviourSnapshot,
  current: BehaviourSnapshot,
  opts: CompareOptions = {},
): BehaviourComparison {
  const out = new Findings();
  // Labels are display only: the current run's wording first.
  const labels: Record<string, Record<string, string>> = {};
  for (const s of [baseline, current])
    for (const [gap, l] of Object.entries(s.gapLabels ?? {}))
      labels[gap] = { ...labels[gap], ...l };
  const label = (gap: string, probe: string) => `${gap} “${labels[gap]?.[probe] ?? probe}”`;

  const wholeOps = [baseline.operations ?? {}, current.operations ?? {}] as const;
  let ops = wholeOps;
  let gaps = [baseline.gaps ?? {}, current.gaps ?? {}] as const;
  const common = commonTests(baseline, current);
  if (common) {
    const missing = baseline.exercised!.tests.filter((t) => !common.has(t)).length;
    const same = missing === 0 && common.size === current.exercised!.tests.length;
    // Runs of other tests met other data: what the baseline saw only sometimes is no evidence.
    out.evidence = same ? 'all' : 'strong';
    if (!same)
      out.note(
        'not-exercised',
        `compared over the ${common.size} contract test(s) both runs ran: ${missing} of the baseline's did not run in this run${current.exercised?.grep ? ` (--grep ${current.exercised.grep})` : ''}, ${current.exercised!.tests.length - common.size} of this run's are not in the baseline`,
        {},
      );
    ops = [
      keepToTests(out, ops[0], common, 'baseline'),
      keepToTests(out, ops[1], common, 'current'),
    ];
    gaps = [
      keepProbesToTests(out, { ...baseline, gaps: gaps[0] }, common, 'baseline', label),
      keepProbesToTests(out, { ...current, gaps: gaps[1] }, common, 'current', label),
    ];
  } else {
    const partial = opts.partial ?? current.exercised?.grep !== undefined;
    const old = baseline.exercised ? 'this run' : 'the baseline';
    out.note(
      'no-record',
      `${old} does not record which tests saw what (snapshot version 2)${partial ? ': this partial run reads nothing as gone' : ''}`,
      {},
    );
    out.evidence = partial ? 'none' : 'all';
  }
  compareOperations(out, ops[0], ops[1], wholeOps);
  compareGaps(out, gaps[0], gaps[1], labels);
  out.evidence = 'all';
  compareLimits(out, baseline, current, opts);
  return { findings: out.list, notes: out.notes };
}

/** The findings of `compareBehaviour` alone. */
export function compareSnapshots(
  baseline: BehaviourSnapshot,
  current: BehaviourSnapshot,
  opts: CompareOptions = {},
): CompareFinding[] {
  return compareBehaviour(baseline, current, opts).findings;
}
