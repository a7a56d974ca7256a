/**
 * `--max-requests N` (run/max-requests.ts): the fuzz gives way first (fewer cases, the samplers
 * alone, fewer operations, none); contract tests are left out only when the suite alone exceeds
 * N, and every one left out is named. Then against `harness serve` as its own process, reached
 * only through HARNESS_* variables: a run held to a small N sends at most N requests
 * (summary.json's own count), lists each contract test it left out (console, summary.json,
 * junit.xml) and its verdict line says the gate was partial.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadConfig } from '../../core/config.ts';
import { fuzzPlan, fuzzSize } from '../../fuzz/fuzz-size.ts';
import { partialReason, type Summary, verdictOf } from '../../report/summary.ts';
import { contractCost, listContractTests } from '../../run/cost-estimate.ts';
import { fitToMaxRequests, fuzzCost } from '../../run/max-requests.ts';
import { runHarness, serveReference, stopAll } from './gate-processes.ts';

after(stopAll);

const costs = {
  measuredOn: 'test',
  perWorker: { sent: 10, key: 10 },
  tests: {
    'a › one': { sent: 20, key: 20 },
    'a › two': { sent: 30, key: 30 },
    'a › three': { sent: 5, key: 5 },
  },
};
const tests = Object.keys(costs.tests);
const fuzzers = { input: true, delivery: true };
const full = fuzzSize({});
const contracts = contractCost(costs, tests).sent; // 55 + 2 workers × 10

test('the fuzz gives way first: fewer cases, then the samplers alone, then fewer operations', () => {
  // What the fit counts for a fuzz: its plan and a tenth on top.
  const cost = (s = full) => fuzzCost(s, fuzzers);
  assert.ok(cost() >= fuzzPlan(full, fuzzers).total * 1.1);
  // Room for everything: nothing changes.
  const all = fitToMaxRequests({ max: contracts + cost(), costs, tests, fuzz: full, fuzzers });
  assert.equal(all.fuzz, full);
  assert.deepEqual(all.leftOut, []);
  // A little less: fewer random cases, every operation still fuzzed, every contract test kept.
  const fewer = fitToMaxRequests({
    max: contracts + cost() - 30,
    costs,
    tests,
    fuzz: full,
    fuzzers,
  });
  assert.equal(fewer.fuzz!.name, 'fitted');
  assert.ok(fewer.fuzz!.inputCases < full.inputCases && fewer.fuzz!.inputCases > 1);
  assert.equal(fewer.fuzz!.operations, undefined);
  assert.ok(contracts + cost(fewer.fuzz) <= contracts + cost() - 30);
  assert.deepEqual(fewer.tests, tests);
  // Room for less than the gate-sized fuzz: the samplers of fewer operations.
  const gate = cost(fuzzSize({}, 'team'));
  const ops = fitToMaxRequests({ max: contracts + gate - 1, costs, tests, fuzz: full, fuzzers });
  assert.equal(ops.fuzz!.inputCases, 1);
  assert.ok(ops.fuzz!.operations && ops.fuzz!.operations.length < 4);
  assert.ok(contracts + cost(ops.fuzz) <= contracts + gate - 1);
  assert.match(ops.fuzz!.why, /--max-requests/);
  assert.deepEqual(ops.leftOut, []);
  // No fuzz fits: not run, said why; the contract suite is still whole.
  const none = fitToMaxRequests({ max: contracts + 3, costs, tests, fuzz: full, fuzzers });
  assert.equal(none.fuzz, undefined);
  assert.match(none.fuzzLeftOut!, /not run: .*--max-requests/);
  assert.deepEqual(none.tests, tests);
});

test('contract tests are left out only when the suite alone exceeds N: the first that fit run, the rest are named', () => {
  // 2 workers × 10 + one (20) + three (5) = 45 ≤ 50; two (30) does not fit.
  const fit = fitToMaxRequests({ max: 50, costs, tests, fuzz: full, fuzzers });
  assert.deepEqual(fit.tests, ['a › one', 'a › three']);
  assert.deepEqual(fit.leftOut, ['a › two']);
  assert.equal(fit.fuzz, undefined);
  assert.ok(contractCost(costs, fit.tests).sent <= 50);
  // Every test is either run or named: nothing is dropped silently.
  assert.deepEqual([...fit.tests, ...fit.leftOut].sort(), [...tests].sort());
  // Without the fuzz area: the same.
  assert.deepEqual(fitToMaxRequests({ max: 50, costs, tests, fuzzers }).leftOut, ['a › two']);
});

test("every contract test can be named in Playwright's test list (no title holds its separator)", async () => {
  const listed = await listContractTests({ PATH: process.env.PATH, HOME: process.env.HOME });
  assert.ok(listed && listed.length > 50);
  const bad = listed.filter((t) => [t.file, ...t.path].some((p) => p.includes('›')));
  assert.deepEqual(bad, []);
});

test('a run that left contract tests out is partial, never a clean pass; a failure or an error still says so', () => {
  const cut = { total: 1, maxRequests: { limit: 50, contractTestsNotRun: 3, fuzz: 'x' } };
  const why = partialReason(cut as Summary['requests']);
  assert.equal(why, '3 contract tests not run to fit --max-requests 50');
  assert.equal(verdictOf(0, why), 'partial');
  assert.equal(verdictOf(1, why), 'fail');
  assert.equal(verdictOf(2, why), 'error');
  // Everything fitted: no reason, a clean pass.
  const whole = { total: 1, maxRequests: { limit: 500, contractTestsNotRun: 0, fuzz: 'x' } };
  assert.equal(partialReason(whole as Summary['requests']), undefined);
  assert.equal(verdictOf(0, undefined), 'pass');
});

test('HARNESS_MAX_REQUESTS: a whole number ≥ 1, else a clear error', () => {
  assert.equal(loadConfig({ HARNESS_MAX_REQUESTS: '150' }).maxRequests, 150);
  assert.equal(loadConfig({}).maxRequests, undefined);
  assert.throws(() => loadConfig({ HARNESS_MAX_REQUESTS: '0' }), /HARNESS_MAX_REQUESTS must be/);
  assert.throws(() => loadConfig({ HARNESS_MAX_REQUESTS: 'lots' }), /HARNESS_MAX_REQUESTS must be/);
});

test('against a separately served deployment: a run held to 120 requests sends at most 120 and lists what it left out', {
  timeout: 240_000,
}, async () => {
  const served = await serveReference();
  const max = 120;
  const r = await runHarness(
    { ...served.vars, HARNESS_MAX_REQUESTS: String(max) },
    ['--skip', 'load'],
    { limitMs: 200_000 },
  );
  assert.equal(r.code, 0, r.stderr.slice(-3000));
  const s = JSON.parse(r.read('summary.json')) as Summary;
  const req = s.requests!;
  assert.ok(req.total <= max, `sent ${req.total} with --max-requests ${max}`);
  assert.ok(req.total > 0, 'the run did test something');
  const cut = req.maxRequests!;
  assert.equal(cut.limit, max);
  assert.ok(cut.contractTestsNotRun > 0, 'the contract suite alone exceeds 120');
  assert.match(cut.fuzz, /not run/);
  // Each test left out is named in the contract area's not-run list, with the reason…
  const leftOut = s.areas.contracts!.notRun.filter((n) => /--max-requests 120/.test(n.reason));
  assert.equal(leftOut.length, cut.contractTestsNotRun);
  // …and every test Playwright lists either ran or is named there: none dropped silently.
  assert.ok(s.tests.passed > 0 && s.tests.failed === 0);
  const listed = await listContractTests({ PATH: process.env.PATH, HOME: process.env.HOME });
  assert.equal(s.tests.passed + leftOut.length, listed!.length);
  // …in junit.xml as skipped, and on the console.
  const junit = r.read('junit.xml');
  assert.equal(junit.split('does not fit --max-requests 120').length - 1, leftOut.length);
  assert.match(r.stdout, /--- not run \(\d+\) ---/);
  // The verdict is not a clean PASS, in summary.json, on the page and on the console: partial,
  // with what was left unchecked (exit 0: the user chose the budget).
  const why = `${cut.contractTestsNotRun} contract tests not run to fit --max-requests 120`;
  assert.equal(s.verdict, 'partial');
  assert.equal(s.partial, why);
  assert.match(r.read('index.html'), new RegExp(`<b class="partial">PARTIAL</b>.*partial: ${why}`));
  assert.match(
    r.stdout,
    new RegExp(`verdict: PARTIAL \\(exit 0\\) in [\\d.]+ s — partial: ${why}`),
  );
  assert.equal(s.areas.fuzz!.verdict, 'not-run');
});
