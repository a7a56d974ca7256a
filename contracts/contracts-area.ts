/**
 * The contract area of a run from what the suite recorded: check results and Playwright's tests.
 */
import { type AreaSummary, judged, uniqueFailures } from '../core/area.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { TestRow } from './collect.ts';

export function contractsArea(results: CheckResult[], tests: TestRow[]): AreaSummary {
  const failures = results.filter((r) => !r.passed).map((r) => r.failure!);
  const documented = uniqueFailures(failures.filter((f) => f.provenance === 'documented'));
  const assumed = uniqueFailures(failures.filter((f) => f.provenance === 'assumed'));
  const notRun = tests
    .filter((t) => t.status === 'skipped')
    .map((t) => ({ name: t.title, reason: t.reason ?? 'skipped' }));
  // A test that failed without any check failure is either a precondition the target did not
  // meet (a `need(…, 'what was needed')` before the checks, contracts/need.ts, e.g. "the ticket was created" on a
  // deployment without our assumed creation route) — reported, like any guess of ours that did
  // not hold — or a crash or timeout of the harness run itself, which must never pass silently.
  const crashed = tests.filter(
    (t) => (t.status === 'failed' || t.status === 'timedOut') && t.failedOn !== 'checks',
  );
  for (const t of crashed) {
    const first = (t.error ?? '').split('\n')[0] ?? '';
    const precondition = t.status === 'failed' && t.failedOn === 'precondition';
    (precondition ? assumed : documented).push({
      check: precondition ? 'harness.precondition' : 'harness.test-completed',
      provenance: precondition ? 'assumed' : 'documented',
      rule: precondition
        ? 'The target reaches the state a test needs before its checks run (on our assumed routes).'
        : 'Every contract test runs to completion against the target.',
      received: `${t.title}: ${first}`,
      expected: precondition ? 'the precondition holds' : 'the test completes',
    });
  }
  const ran = tests.filter((t) => t.status !== 'skipped').length;
  const verdict = tests.length === 0 ? 'not-run' : judged(documented.length, assumed.length);
  return {
    verdict,
    headline: `${ran} tests, ${results.length} check evaluations: ${documented.length} documented failures, ${assumed.length} assumption mismatches, ${notRun.length} not run`,
    documentedFailures: documented,
    assumptionMismatches: assumed,
    notRun,
  };
}
