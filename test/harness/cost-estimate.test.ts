/**
 * The cost line's arithmetic (run/cost-estimate.ts, core/http/key-budget.ts): the key's budget
 * from the preflight's headers, the wait the refill makes, the estimate summed over the tests the
 * run selects; and the measured costs cover every contract test Playwright lists (regenerate
 * contracts/request-costs.json with scripts/contract-costs.ts when this fails).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../core/config.ts';
import { budgetTime, keyBudget } from '../../core/http/key-budget.ts';
import { fuzzPlan, fuzzSize } from '../../fuzz/fuzz-size.ts';
import {
  contractCost,
  costLines,
  estimateCost,
  listContractTests,
  listedTitles,
  readCosts,
} from '../../run/cost-estimate.ts';

const cfg = loadConfig({});

test('the key budget: a Team Limit has the documented burst, the reserve 20 % of it; the refill does the rest', () => {
  const b = keyBudget({ limit: 120, remaining: 150 }, cfg)!;
  assert.deepEqual([b.plan, b.burst, b.reserve], ['team', 200, 40]);
  assert.deepEqual(budgetTime(300, b), { availableNow: 110, refilled: 190, waitS: 95 });
  assert.deepEqual(budgetTime(50, b), { availableNow: 110, refilled: 0, waitS: 0 });
  // --reserve wins; an unknown plan's burst is at least what Remaining shows.
  const own = keyBudget({ limit: 77, remaining: 30 }, { ...cfg, reserve: 5 })!;
  assert.deepEqual([own.plan, own.burst, own.reserve], [undefined, 31, 5]);
  // A key listed under a plan is that plan's, whatever its Limit says.
  const listed = keyBudget(
    { limit: 600, remaining: 10 },
    { ...cfg, apiKey: 'k', planKeys: { team: ['k'], growth: [], enterprise: [] } },
  )!;
  assert.equal(listed.plan, 'team');
  assert.equal(keyBudget({ limit: 120 }, cfg), undefined, 'no Remaining: no budget');
  assert.equal(keyBudget({ nonsense: true, limit: 0, remaining: 3 }, cfg), undefined);
});

test('the estimate sums the selected tests, each worker and the fuzz plan; the line says it', () => {
  const costs = {
    measuredOn: 'test',
    perWorker: { sent: 10, key: 8 },
    tests: { 'a › one': { sent: 5, key: 4 }, 'a › two': { sent: 7, key: 2 } },
  };
  const size = fuzzSize({}, 'team');
  // Less Remaining than the run sends with the key: the budget binds.
  const budget = keyBudget({ limit: 120, remaining: 100 }, cfg)!;
  const e = estimateCost({
    cfg,
    areas: new Set(['contracts', 'fuzz']),
    tests: ['a › one', 'a › two', 'a › new'],
    costs,
    fuzz: size,
    budget,
    delivery: true,
  });
  const fuzz = fuzzPlan(size, { input: true, delivery: true }).total;
  // The unmeasured test at the mean (6 sent, 3 with the key); two workers.
  assert.equal(e.byArea.contracts, 5 + 7 + 6 + 2 * 10);
  assert.equal(e.byArea.fuzz, fuzz);
  assert.equal(e.key, 4 + 2 + 3 + 2 * 8 + fuzz);
  assert.equal(e.unmeasuredTests, 1);
  assert.equal(e.budget!.refilled, e.key - 60);
  const [line, fuzzLine, budgetLine] = costLines(e);
  assert.match(line!, /^cost: about \d+ requests \(contracts 38 · fuzz \d+\)/);
  assert.match(line!, /1 contract tests without a measured cost/);
  assert.match(fuzzLine!, /gate-sized on a Team key/);
  assert.match(
    budgetLine!,
    /reserve 40 left for others → 60 now, \d+ at the refill: at least \d+ s/,
  );
  // A --grep run selects fewer tests and no fuzz: it costs less.
  const grep = estimateCost({
    cfg,
    areas: new Set(['contracts']),
    tests: ['a › one'],
    costs,
    delivery: false,
  });
  assert.deepEqual(grep.byArea, { contracts: 5 + 10 });
});

test('a test that borrows other tests’ answers costs them in a partial run, not in a whole one', () => {
  const costs = {
    measuredOn: 'test',
    perWorker: { sent: 0, key: 0 },
    tests: {
      'a › reads': { sent: 3, key: 3 },
      'a › every read': { sent: 1, key: 1, borrowed: 3 },
    },
  };
  const env = { HARNESS_WORKERS: '1' };
  // Both run: the reads are sent once, by the test that needs them.
  assert.deepEqual(contractCost(costs, ['a › reads', 'a › every read'], env), {
    sent: 4,
    key: 4,
    unmeasured: 0,
  });
  // Alone (a --grep, or --max-requests leaving the other out): it sends the reads itself.
  assert.deepEqual(contractCost(costs, ['a › every read'], env), {
    sent: 4,
    key: 4,
    unmeasured: 0,
  });
});

test('Playwright --list titles are the fixtures’ titles, and every listed contract test has a measured cost', async () => {
  assert.deepEqual(
    listedTitles({
      suites: [
        {
          title: 'x.spec.ts',
          specs: [{ title: 'top' }],
          suites: [{ title: 'group', specs: [{ title: 'inner' }] }],
        },
      ],
    }),
    ['top', 'group › inner'],
  );
  const listed = await listContractTests({ PATH: process.env.PATH, HOME: process.env.HOME });
  assert.ok(listed && listed.length > 50, `the suite is listed: ${listed?.length}`);
  const costs = readCosts()!;
  const missing = listed.filter((t) => !costs.tests[t.title]).map((t) => t.title);
  assert.deepEqual(
    missing,
    [],
    'regenerate contracts/request-costs.json (scripts/contract-costs.ts)',
  );
  const grep = await listContractTests(
    { PATH: process.env.PATH, HOME: process.env.HOME },
    '@auth.invalid-key-401',
  );
  assert.ok(grep && grep.length >= 1 && grep.length < listed.length, 'a --grep selects fewer');
});
