/**
 * `compareSnapshots(baseline, current)`: what a deployment now does differently from a baseline
 * snapshot — statuses, header names, content types and inferred body shapes per operation, the
 * observed gap values (U-table) and the plan-limit estimates. Every finding is `observed`.
 *
 * Only behaviour is compared, never run-to-run noise: counts, timestamps and the target name are
 * ignored; `integer` and `number` are one type (a float that happens to be whole is not a change);
 * an array seen only empty says nothing about its items; limit estimates move within tolerance;
 * something measured on one side only is "not measured", never a removal.
 */
import type { BehaviourSnapshot } from '../../core/snapshot/types.ts';
import { compareGaps } from './compare-gaps.ts';
import { compareLimits } from './compare-limits.ts';
import { compareOperations } from './compare-operations.ts';
import { Findings } from './rules.ts';
import type { CompareFinding, CompareOptions } from './types.ts';

export function compareSnapshots(
  baseline: BehaviourSnapshot,
  current: BehaviourSnapshot,
  opts: CompareOptions = {},
): CompareFinding[] {
  const out = new Findings();
  compareOperations(
    out,
    baseline.operations ?? {},
    current.operations ?? {},
    opts.partial ?? false,
  );
  // Labels are display only: the current run's wording first.
  const labels: Record<string, Record<string, string>> = {};
  for (const s of [baseline, current])
    for (const [gap, l] of Object.entries(s.gapLabels ?? {}))
      labels[gap] = { ...labels[gap], ...l };
  compareGaps(out, baseline.gaps ?? {}, current.gaps ?? {}, labels);
  // A run that did not measure plan limits (--skip load) has nothing to compare them with.
  if (opts.limits !== false) compareLimits(out, baseline.limits ?? [], current.limits ?? [], opts);
  return out.list;
}
