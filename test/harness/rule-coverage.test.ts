/**
 * What a run looked at, per documented rule (report/rule-coverage.ts): its matrix cells and its
 * tests, checked or not and why — and a rule the target's own answers kept from being checked on
 * most of what it applies to is `unchecked`, which makes the run no pass (exit 2). Only the
 * target's answers count there: what an option not given or an assumed route the target does not
 * have leaves out is listed, never held against the run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { TestRow } from '../../contracts/collect.ts';
import { emptyArea } from '../../core/area.ts';
import { loadConfig } from '../../core/config.ts';
import { writeReports } from '../../run/write-reports.ts';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import { matrixColumns, matrixRules } from '../../core/checks/applies-to.ts';
import { operations, webhookEvents } from '../../core/spec/operations.ts';
import { RATE_LIMITED } from '../../contracts/matrix-sent.ts';
import { type CoveredTest, ruleCoverage, uncheckedRules } from '../../report/rule-coverage.ts';
import { buildRuleMatrix, type UnreachedRow } from '../../report/rule-matrix.ts';
import { judgement } from './judgement-fixture.ts';

const DOCUMENTED = ALL_CHECKS.filter((c) => c.provenance === 'documented');
const OPS = operations();
const COLUMNS = matrixColumns(OPS, webhookEvents());

/** Every operation the no-key rule applies to, answered 429 on the first `n` (kept by the target). */
function keyless(n: number, o: { byTarget?: boolean; reason?: string } = {}) {
  const unreached: UnreachedRow[] = OPS.slice(0, n).map((op) => ({
    check: 'auth.missing-key-rejected',
    column: op.operationId,
    reason: o.reason ?? RATE_LIMITED,
    ...((o.byTarget ?? true) ? { byTarget: true } : {}),
  }));
  const results = OPS.slice(n).map((op) =>
    judgement('auth.missing-key-rejected', op.operationId, true),
  );
  return buildRuleMatrix(COLUMNS, matrixRules(ALL_CHECKS), results, unreached);
}

const matrixTest: CoveredTest = {
  title: 'rule × operation matrix › without a key: every operation its rules apply to',
  status: 'passed',
  tags: ['auth.missing-key-rejected'],
};

const of = (name: string, m = keyless(0), tests: CoveredTest[] = [matrixTest]) =>
  ruleCoverage(DOCUMENTED, m, tests).find((c) => c.check === name)!;

describe('per documented rule: its cells and its tests', () => {
  test('a clean run: every cell checked, its test run, nothing unchecked', () => {
    const c = of('auth.missing-key-rejected');
    assert.deepEqual(c.cells, { applies: OPS.length, checked: OPS.length, notReached: [] });
    assert.deepEqual(c.tests, { tagged: 1, ran: 1, notRun: [] });
    assert.equal(c.unchecked, undefined);
  });

  test('every keyless request answered 429: not reached on every operation, kept by the target — unchecked, named with why', () => {
    const cov = ruleCoverage(DOCUMENTED, keyless(OPS.length), [matrixTest]);
    const c = cov.find((x) => x.check === 'auth.missing-key-rejected')!;
    assert.deepEqual(c.cells, {
      applies: OPS.length,
      checked: 0,
      notReached: [{ why: RATE_LIMITED, count: OPS.length, byTarget: true }],
    });
    assert.match(
      c.unchecked ?? '',
      new RegExp(`^not reached on ${OPS.length} of the ${OPS.length}`),
    );
    assert.match(c.unchecked ?? '', /429/);
    assert.deepEqual(
      uncheckedRules(cov).map((u) => u.check),
      ['auth.missing-key-rejected'],
    );
  });

  test('"most" is more than half: the limiter in the way on half the operations is counted, not held against the run', () => {
    const half = Math.floor(OPS.length / 2);
    assert.equal(of('auth.missing-key-rejected', keyless(half)).unchecked, undefined);
    assert.ok(of('auth.missing-key-rejected', keyless(half + 1)).unchecked);
  });

  test('cells an option not given or an assumed route left out are listed, never unchecked', () => {
    for (const reason of [
      'not run: needs HARNESS_OTHER_WORKSPACE_KEY',
      'not sent: a write, and the run is read-only (HARNESS_READ_ONLY=1)',
      'not reachable on this target: creating a /v1/contacts object of workspace A for the matrix answered 404',
    ]) {
      const c = of('auth.missing-key-rejected', keyless(OPS.length, { byTarget: false, reason }));
      assert.equal(c.unchecked, undefined, reason);
      assert.deepEqual(c.cells!.notReached, [{ why: reason, count: OPS.length }]);
    }
  });

  test("a rule without cells: its tests — one the target's rate limit stopped is kept by the target, one a missing key left out is not", () => {
    const rotation = (t: Partial<CoveredTest>): CoveredTest => ({
      title: 'key rotation › a rotated key stops working and the new key works',
      status: 'skipped',
      tags: ['@auth.rotated-key-rejected', 'auth.rotation-new-key-works'],
      ...t,
    });
    const spent = "inconclusive: the API key's rate limit is spent (429 after 19 retries)";
    const kept = of('auth.rotated-key-rejected', keyless(0), [
      rotation({ reason: spent, byTarget: true }),
    ]);
    assert.equal(kept.cells, undefined);
    assert.deepEqual(kept.tests, {
      tagged: 1,
      ran: 0,
      notRun: [{ why: spent, count: 1, byTarget: true }],
    });
    assert.match(kept.unchecked ?? '', /^1 of its 1 tests not run — inconclusive/);
    const left = of('auth.rotated-key-rejected', keyless(0), [
      rotation({ reason: 'not run: needs HARNESS_ADMIN_TOKEN' }),
    ]);
    assert.equal(left.unchecked, undefined);
    const ran = of('auth.rotated-key-rejected', keyless(0), [rotation({ status: 'passed' })]);
    assert.deepEqual(ran.tests, { tagged: 1, ran: 1, notRun: [] });
  });

  test('a rule neither the matrix nor any test of the run names is not listed (a --grep run)', () => {
    const cov = ruleCoverage(DOCUMENTED, undefined, [matrixTest]);
    assert.deepEqual(
      cov.map((c) => c.check),
      ['auth.missing-key-rejected'],
    );
  });

  test('judgements: how often the run judged the rule, anywhere', () => {
    const cov = ruleCoverage(
      DOCUMENTED,
      keyless(0),
      [matrixTest],
      [{ name: 'auth.missing-key-rejected', passed: 15, failed: 1 }],
    );
    assert.equal(cov.find((c) => c.check === 'auth.missing-key-rejected')!.judged, 16);
    assert.equal(cov.find((c) => c.check === 'auth.invalid-key-rejected')!.judged, 0);
  });
});

describe("the run's verdict", () => {
  const creation = (t: Partial<TestRow>): TestRow => ({
    title: 'create ticket › a new ticket is open',
    file: 'tickets-create.spec.ts',
    project: 'contracts',
    status: 'skipped',
    durationMs: 0,
    tags: ['ticket.created-status-open'],
    ...t,
  });
  const report = (tests: TestRow[]) =>
    writeReports({
      out: mkdtempSync(join(tmpdir(), 'harness-coverage-')),
      runId: 'test',
      started: Date.now(),
      cfg: loadConfig({ HARNESS_BASELINE: 'off' }),
      areas: { contracts: emptyArea('pass', '0 tests') },
      tests,
      results: [],
      limits: [],
    });

  test("every test stopped by the target's rate limit: no test ran, and the run is no pass — exit 2, the rule named", () => {
    const { summary, exitCode } = report([
      creation({ reason: "inconclusive: the API key's rate limit is spent", byTarget: true }),
    ]);
    assert.equal(exitCode, 2);
    assert.equal(summary.verdict, 'error');
    assert.deepEqual(
      summary.unchecked?.map((u) => u.check),
      ['ticket.created-status-open'],
    );
    assert.equal(summary.rules?.length, 1);
  });

  test('the same test left out for an option not given: listed, and a pass', () => {
    const { summary, exitCode } = report([
      creation({ reason: 'not run: a write, and the run is read-only (HARNESS_READ_ONLY=1)' }),
    ]);
    assert.equal(exitCode, 0);
    assert.equal(summary.verdict, 'pass');
    assert.equal(summary.unchecked, undefined);
    assert.deepEqual(summary.rules?.[0]?.tests.notRun, [
      { why: 'not run: a write, and the run is read-only (HARNESS_READ_ONLY=1)', count: 1 },
    ]);
  });
});
