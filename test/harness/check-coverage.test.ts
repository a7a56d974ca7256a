/**
 * Every registered check is shown to fail: a check that has only ever run against a correct
 * deployment may be unable to fail, and nothing would tell.
 *
 * Shown to fail means one of:
 *  - a contract or webhook fault of the catalogue names it: the detection matrix
 *    (detection.test.ts, `npm run detect`) runs that fault and requires the named check to fail;
 *  - a reading of the readings catalogue names it in `shows`: the readings test
 *    (test/readings/readings.test.ts) runs the gate against that reading and requires the check's
 *    assumption mismatch (or that probe's other value);
 *  - a unit case of check-failure-cases.ts makes it fail — run here, not trusted from a list.
 *
 * The set of checks comes from the registry, so registering a new check without a fault or a
 * failing unit case fails this test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FAULTS } from '../../server/faults.ts';
import { READINGS } from '../../server/readings/index.ts';
import { checks } from '../../core/checks/index.ts';
import { formatFailure } from '../../core/checks/failure.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { registerSecret } from '../../core/redact.ts';
import { checksShownToFail, FAILURE_CASES } from './check-failure-cases.ts';

/** Registered checks that no fault names and no unit case makes fail. */
function unshown(registered: readonly string[], byFault: Set<string>, byUnit: Set<string>) {
  return registered.filter((n) => !byFault.has(n) && !byUnit.has(n)).sort();
}

/**
 * Checks named by the faults the detection matrix runs (limits faults are load verdicts) and by
 * the readings the readings test runs.
 */
const byFault = new Set<string>([
  ...FAULTS.filter((f) => f.area !== 'limits').map((f) => f.check),
  ...READINGS.flatMap((r) => r.shows),
]);

describe('unit failure cases', () => {
  registerSecret('whsec_unit_case_secret');
  for (const c of FAILURE_CASES) {
    test(`${c.check} fails when ${c.breaks}`, () => {
      const v = new Verdict(checks, c.check);
      assert.equal(c.runBroken(v), false, 'the broken exchange must fail the check');
      const [f, ...more] = v.failures();
      assert.ok(f, 'a failure was recorded');
      assert.deepEqual(more, [], 'one failure, of this check only');
      assert.equal(f.check, c.check);
      assert.equal(f.provenance, checks.get(c.check).provenance);
      assert.match(f.received, c.received);
      assert.match(f.expected, c.expected);
      const text = formatFailure(f);
      const label = f.provenance === 'documented' ? 'Documented' : 'Assumed';
      assert.match(text, new RegExp(`^\\[${c.check.replace(/\./g, '\\.')}\\]`));
      assert.ok(text.includes(`Received:   ${f.received}`), text);
      assert.ok(text.includes(`${label}:`) && text.includes(f.expected), text);
      assert.equal(text.includes('whsec_unit_case_secret'), false, 'no secret in the text');

      const ok = new Verdict(checks, c.check);
      assert.equal(c.runCorrect(ok), true, 'the correct counterpart must pass');
    });
  }
});

describe('every registered check is shown to fail', () => {
  test('by a fault of the detection matrix or by a failing unit case', () => {
    const byUnit = checksShownToFail(FAILURE_CASES);
    const registered = checks.names();
    assert.ok(registered.length >= 60, `only ${registered.length} checks registered`);
    assert.deepEqual(
      unshown(registered, byFault, byUnit),
      [],
      'checks nothing shows to fail: add a fault to server/faults.ts (a documented check) or a reading to server/readings/ (an assumed one), else a unit case to test/harness/check-failure-cases.ts',
    );
  });

  test('a check nothing makes fail is reported, and a case that does not fail counts for nothing', () => {
    const registered = [...checks.names(), 'demo.cannot-fail'];
    const byUnit = checksShownToFail(FAILURE_CASES);
    assert.deepEqual(unshown(registered, byFault, byUnit), ['demo.cannot-fail']);
    // A case whose "broken" exchange passes the check does not count as showing it fails.
    const sham = { ...FAILURE_CASES[0]!, runBroken: FAILURE_CASES[0]!.runCorrect };
    assert.equal(checksShownToFail([sham]).size, 0);
  });
});
