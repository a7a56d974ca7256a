/**
 * One judgement of the contract suite as the rule × operation matrix reads it (a CheckResult of
 * a test, its rule, and the matrix column of the exchange it judged), for the tests that build a
 * matrix from hand-written results rather than a run.
 */
import type { CheckResult } from '../../core/checks/verdict.ts';

/** `check` judged once on `column`, passed or failed; documented unless said otherwise. */
export function judgement(
  check: string,
  column: string,
  passed: boolean,
  provenance: CheckResult['provenance'] = 'documented',
): CheckResult {
  return { test: 't', check, provenance, passed, column };
}
