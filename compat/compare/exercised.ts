/**
 * Only what both runs observed is compared. A snapshot records which contract tests ran, which
 * of them saw each status and which recorded each probe; the comparison keeps, on both sides, to
 * the statuses and probes some test both runs ran saw. What only other tests saw is left out, as
 * a note: a test that did not run (`--grep`, a skip, a suite that changed) is no evidence that
 * anything is gone — or new.
 */
import type { BehaviourSnapshot, OperationObservation } from '../../core/snapshot/types.ts';
import type { Findings } from './rules.ts';

export type Side = 'baseline' | 'current';

const onlyBy = (side: Side) =>
  side === 'baseline'
    ? 'seen in the baseline only by tests this run did not run'
    : 'seen in this run only by tests the baseline did not run';

/** The tests both runs ran; undefined when either snapshot does not record them (version 2). */
export function commonTests(a: BehaviourSnapshot, b: BehaviourSnapshot): Set<string> | undefined {
  if (!a.exercised || !b.exercised) return undefined;
  const ran = new Set(b.exercised.tests);
  return new Set(a.exercised.tests.filter((t) => ran.has(t)));
}

/** `tests` unknown (an observation without them) keeps it: nothing says it was not exercised. */
const within = (tests: readonly string[] | undefined, common: Set<string>) =>
  tests === undefined || tests.some((t) => common.has(t));

/** `ops` as the tests in `common` saw them; what only other tests saw is noted and left out. */
export function keepToTests(
  out: Findings,
  ops: Record<string, OperationObservation>,
  common: Set<string>,
  side: Side,
): Record<string, OperationObservation> {
  const kept: Record<string, OperationObservation> = {};
  for (const [op, o] of Object.entries(ops)) {
    const statuses: OperationObservation['statuses'] = {};
    const dropped: string[] = [];
    for (const [status, s] of Object.entries(o.statuses)) {
      if (!within(s.tests, common)) {
        dropped.push(status);
        continue;
      }
      // What the status carried is compared whole: which tests met which data is not recorded
      // (a header or type seen only sometimes is compared as such, rules.ts `weak`).
      statuses[status] = s;
    }
    if (dropped.length)
      out.note('not-exercised', `${op} ${dropped.join(', ')}: ${onlyBy(side)}`, {
        operation: op,
        ...(dropped.length === 1 ? { status: dropped[0] } : {}),
      });
    if (Object.keys(statuses).length) kept[op] = { statuses };
  }
  return kept;
}

/** The probes of `s` recorded by tests in `common`; the others are noted and left out. */
export function keepProbesToTests(
  out: Findings,
  s: BehaviourSnapshot,
  common: Set<string>,
  side: Side,
  label: (gap: string, probe: string) => string,
): BehaviourSnapshot['gaps'] {
  const kept: BehaviourSnapshot['gaps'] = {};
  for (const [gap, probes] of Object.entries(s.gaps)) {
    for (const [probe, value] of Object.entries(probes)) {
      if (!within(s.probedBy?.[gap]?.[probe], common)) {
        out.note('not-exercised', `${label(gap, probe)}: ${onlyBy(side)}`, { gap, probe });
        continue;
      }
      kept[gap] = { ...kept[gap], [probe]: value };
    }
  }
  return kept;
}
