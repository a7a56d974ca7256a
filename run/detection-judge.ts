/**
 * One fault's project of the detection matrix, judged: the fault is caught when its named check
 * failed there, and it is caught cleanly when no other check failed beside it — "one fault, one
 * failure". Another check that failed is collateral unless the catalogue lists it for the fault
 * (`alsoFails`, with why); a listed one that was judged there and did not fail is stale. What
 * failed is read as the contract area reads it (contracts/contracts-area.ts), so a test that
 * crashed or whose precondition did not hold counts too (`harness.test-completed`,
 * `harness.precondition`).
 */
import type { TestRow } from '../contracts/collect.ts';
import { contractsArea } from '../contracts/contracts-area.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import { redact } from '../core/redact.ts';
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
}

export function judgeFault(
  project: string,
  fault: Pick<Fault, 'check' | 'alsoFails'>,
  tests: readonly TestRow[],
  results: readonly CheckResult[],
): FaultJudgement {
  const mine = results.filter((r) => r.project === project);
  const ran = tests.filter((t) => t.project === project);
  const area = contractsArea(mine, ran);
  const failures = [...area.documentedFailures, ...area.assumptionMismatches];
  const named = failures.find((f) => f.check === fault.check);
  const listed = new Set((fault.alsoFails ?? []).map((a) => a.check));
  const collateral = new Map<string, string>();
  for (const f of failures)
    if (f.check !== fault.check && !listed.has(f.check) && !collateral.has(f.check))
      collateral.set(f.check, redact(f.received));
  const failed = new Set(failures.map((f) => f.check));
  const judged = new Set(mine.map((r) => r.check));
  return {
    caught: Boolean(named),
    tests: ran.filter((t) => t.status !== 'skipped').length,
    ...(named
      ? { evidence: redact(`Received: ${named.received} / Expected: ${named.expected}`) }
      : {}),
    collateral: [...collateral].map(([check, received]) => ({ check, received })),
    stale: [...listed].filter((c) => judged.has(c) && !failed.has(c)).sort(),
  };
}

/** Caught by its named check and by nothing else the catalogue does not list. */
export const cleanlyCaught = (j: FaultJudgement) =>
  j.caught && j.collateral.length === 0 && j.stale.length === 0;
