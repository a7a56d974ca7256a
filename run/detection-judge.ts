/**
 * One fault's project of the detection matrix, judged: the fault is caught when its named check
 * failed there, and it is caught cleanly when no other check failed beside it — "one fault, one
 * failure". Another check that failed is collateral unless the catalogue lists it for the fault
 * (`alsoFails`, with why); a listed one that was judged there and did not fail is stale. What
 * failed is read as the contract area reads it (contracts/contracts-area.ts), so a test that
 * crashed or whose precondition did not hold counts too (`harness.test-completed`,
 * `harness.precondition`).
 *
 * A fault caught as `unchecked` keeps its check from being checked rather than failing it: caught
 * when the project's run names that check among the documented rules the target's answers kept
 * from being checked (report/rule-coverage.ts, as the gate's summary does: the run is not a
 * pass), and no check failed — a failure there, of its own check too, is collateral unless
 * listed. The other rules it kept unchecked are shown (`unchecked`), not held against it: the
 * same stand-in answer hides every rule that reads it.
 */
import type { TestRow, readUnreached } from '../contracts/collect.ts';
import { contractsArea } from '../contracts/contracts-area.ts';
import { ALL_CHECKS } from '../core/checks/all.ts';
import { matrixColumns, matrixRules } from '../core/checks/applies-to.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import { redact } from '../core/redact.ts';
import { operations, webhookEvents } from '../core/spec/operations.ts';
import { ruleCoverage, uncheckedRules } from '../report/rule-coverage.ts';
import { buildRuleMatrix } from '../report/rule-matrix.ts';
import type { Fault } from '../server/faults.ts';

export interface FaultJudgement {
  caught: boolean;
  /** Tests that ran in the fault's project. */
  tests: number;
  /** First failure of the named check, when caught. */
  evidence?: string;
  /** Other checks that failed and that the catalogue does not list for the fault. */
  collateral: Array<{ check: string; received: string }>;
  /** Checks the catalogue lists for the fault that were judged there and did not fail. */
  stale: string[];
  /** Documented rules the target's answers kept from being checked there (report/rule-coverage.ts). */
  unchecked?: string[];
}

/** The documented rules the target's answers kept from being checked in one project's run. */
function uncheckedIn(
  tests: readonly TestRow[],
  results: readonly CheckResult[],
  unreached: ReturnType<typeof readUnreached>,
) {
  const matrix = buildRuleMatrix(
    matrixColumns(operations(), webhookEvents()),
    matrixRules(ALL_CHECKS),
    results,
    unreached,
  );
  const documented = ALL_CHECKS.filter((c) => c.provenance === 'documented');
  return uncheckedRules(ruleCoverage(documented, matrix, tests));
}

export function judgeFault(
  project: string,
  fault: Pick<Fault, 'check' | 'alsoFails' | 'caughtAs'>,
  tests: readonly TestRow[],
  results: readonly CheckResult[],
  /** The matrix cells the suite could not reach (contracts/collect.ts readUnreached), any project. */
  unreached: ReturnType<typeof readUnreached> = [],
): FaultJudgement {
  const mine = results.filter((r) => r.project === project);
  const ran = tests.filter((t) => t.project === project);
  const area = contractsArea(mine, ran);
  const failures = [...area.documentedFailures, ...area.assumptionMismatches];
  const unchecked = uncheckedIn(
    ran,
    mine,
    unreached.filter((u) => u.project === project),
  );
  const byUnchecked = fault.caughtAs === 'unchecked';
  const named = byUnchecked ? undefined : failures.find((f) => f.check === fault.check);
  const kept = byUnchecked ? unchecked.find((u) => u.check === fault.check) : undefined;
  const listed = new Set((fault.alsoFails ?? []).map((a) => a.check));
  const collateral = new Map<string, string>();
  for (const f of failures)
    if (
      (byUnchecked || f.check !== fault.check) &&
      !listed.has(f.check) &&
      !collateral.has(f.check)
    )
      collateral.set(f.check, redact(f.received));
  const failed = new Set(failures.map((f) => f.check));
  const judged = new Set(mine.map((r) => r.check));
  return {
    caught: Boolean(named ?? kept),
    tests: ran.filter((t) => t.status !== 'skipped').length,
    ...(named
      ? { evidence: redact(`Received: ${named.received} / Expected: ${named.expected}`) }
      : {}),
    ...(kept ? { evidence: redact(`not checked: ${kept.why}`) } : {}),
    collateral: [...collateral].map(([check, received]) => ({ check, received })),
    stale: [...listed].filter((c) => judged.has(c) && !failed.has(c)).sort(),
    ...(unchecked.length ? { unchecked: unchecked.map((u) => u.check) } : {}),
  };
}

/** Caught by its named check and by nothing else the catalogue does not list. */
export const cleanlyCaught = (j: FaultJudgement) =>
  j.caught && j.collateral.length === 0 && j.stale.length === 0;
