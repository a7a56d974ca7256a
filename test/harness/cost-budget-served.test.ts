/**
 * The cost said first, and a re-run that is cheap (a gate run fits a Team key's burst), on a Team key of a reference
 * deployment served as its own process (`harness serve --port 0`, real time: the key refills at
 * 120/min, burst 200), reached only through the env file it writes. Two `harness run --skip load`
 * back to back, each its own process:
 *
 * - each prints, after the preflight, the requests it will send per area and the wait the key's
 *   budget makes (Remaining above the reserve now, the rest at the refill); the printed estimate is
 *   within 20 % of summary.json's actual count, per area and in total, and no run takes longer
 *   than 1.2 × the wait it printed (and half a minute for start-up on a busy machine);
 * - each keeps the reserve (default 20 % of the burst: 40): the lowest X-RateLimit-Remaining of
 *   the key that any paced area saw (summary.json → requests.lowestRemaining) stays above it, give
 *   or take one request in flight per worker;
 * - the second run starts on what the first left and takes no longer than its request count
 *   requires at the refill rate (its printed wait), give or take 20 %;
 * - each says, at its end, the time it waited for the rate limit in wall-clock time (never more
 *   than the run took) against the refill its requests with the key needed; the wait it printed
 *   first is within 20 % of the time it took, and the time it waited is no more than that (half
 *   a minute above, for start-up on a busy machine); no less cannot be asserted, as the run's work
 *   overlaps the refill — where the budget bound, the run waited (budget-binding.ts).
 *
 * The suite's SLA tests jump this deployment's clock, but its limiter refills in real time only,
 * as staging's does (server/rate-limit/clock-jumps.ts).
 *
 * About seven minutes: the refill is the point.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { budgetBinding } from './budget-binding.ts';
import { gateRunFromEnvFile } from './gate-run-env-file.ts';

const within = (estimate: number, actual: number, share = 0.2) =>
  Math.abs(estimate - actual) <= share * actual;

test('two gate runs back to back on one Team key: the printed cost is within 20 % of the actual, the reserve is kept', {
  timeout: 12 * 60_000,
}, async (t) => {
  const deployment = await spawnServe([]);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'harness-cost-'));
    for (const n of [1, 2]) {
      const out = join(dir, `run-${n}`);
      const run = await gateRunFromEnvFile(deployment.envFile, out);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      const r = summary.requests!;
      const e = r.estimate!;
      const wallS = summary.durationMs / 1000;
      t.diagnostic(
        `run ${n}: exit ${run.code}, ${wallS.toFixed(1)} s; actual ${JSON.stringify(r.byArea)}; estimate ${JSON.stringify(e)}; lowest Remaining ${r.lowestRemaining}; waited ${r.waitedS} s wall clock (${r.waitedByProcessesS} s added over the processes), the refill needed ${r.refill?.neededS} s`,
      );
      assert.equal(run.code, 0, `run ${n}\n${run.output.slice(-3000)}`);
      // Said first: the cost line comes right after the preflight, before the contract suite.
      const lines = run.output.split('\n');
      const cost = lines.findIndex((l) => l.startsWith('cost: about '));
      assert.ok(cost > 0 && lines[cost - 1]!.startsWith('preflight: ok'), 'after the preflight');
      assert.ok(
        lines.findIndex((l) => l.startsWith('[1/3] contract suite')) > cost,
        'before the suite',
      );
      assert.match(
        run.output,
        /key budget: team plan, 120\/min, burst 200, Remaining \d+, reserve 40/,
      );
      assert.match(run.output, /fuzz: gate: gate-sized on a Team key/);
      // From the plan the run executes: every contract test it selected has a measured cost.
      assert.equal(e.unmeasuredTests, 0);
      assert.ok(within(e.total, r.total), `run ${n}: ${e.total} estimated, ${r.total} sent`);
      for (const area of ['contracts', 'fuzz'])
        assert.ok(
          within(e.byArea[area]!, r.byArea[area]!),
          `run ${n} ${area}: ${e.byArea[area]} estimated, ${r.byArea[area]} sent`,
        );
      // The budget binds (a Team key's burst is less than a gate run), and the time it makes the
      // run take is the time it took: within 20 % of its request count at the refill rate.
      const b = e.budget!;
      assert.ok(b.refilled > 0, `run ${n}: the budget binds`);
      // Never shorter (the bucket gives no more), never longer than the start-up and a busy
      // machine's sending allow on top.
      assert.ok(
        wallS >= 0.8 * b.waitS && wallS <= 1.2 * b.waitS + 30,
        `run ${n}: ${wallS} s taken, the refill needs ${b.waitS} s`,
      );
      // The time waited is wall clock (the union of the processes' waits, never more than the
      // run took) and held against the refill its requests with the key needed, printed.
      assert.ok(r.waitedS <= wallS, `run ${n}: waited ${r.waitedS} s in a ${wallS} s run`);
      const refill = r.refill!;
      assert.ok(refill.keySent > 0 && refill.limitPerMin === 120);
      // Inside the Team burst: what the run takes from its key's bucket is at most the
      // burst of 200 — the requests with no key, the read-only key or the other workspace's key
      // (the rule matrix's cells) come out of other buckets.
      assert.ok(refill.keySent <= 200, `run ${n}: ${refill.keySent} requests with the key`);
      assert.ok(
        r.waitedS <= 1.2 * refill.neededS + 30,
        `run ${n}: waited ${r.waitedS} s, the refill needed ${refill.neededS} s`,
      );
      // The wait printed before the run bounds the wait it had from above. From below it cannot:
      // the run's own work overlaps the refill, and on a slow machine (a longer run) the refill
      // covers more of it — the run took at least the printed time (asserted above), and where
      // the budget bound, worked out from the run itself (budget-binding.ts), it waited.
      assert.ok(
        r.waitedS <= 1.2 * b.waitS + 30,
        `run ${n}: waited ${r.waitedS} s, ${b.waitS} s printed`,
      );
      const bound = budgetBinding(summary, 120 / 60);
      t.diagnostic(
        `run ${n}: ${bound.binding ? 'the budget bound' : 'the refill covered it'}: ${bound.why}`,
      );
      if (bound.binding) assert.ok(r.waitedS > 0, `run ${n} did not wait, yet ${bound.why}`);
      assert.match(
        run.output,
        /waited [\d.]+ s for the rate limit, wall clock, against [\d.]+ s the refill needed at 120\/min for the run's \d+ requests with the key/,
      );
      // The reserve was left for others (one request in flight per worker aside).
      assert.ok(
        r.lowestRemaining !== undefined && r.lowestRemaining >= b.reserve - 2,
        `run ${n}: Remaining fell to ${r.lowestRemaining}, reserve ${b.reserve}`,
      );
      assert.equal(r.rateLimited, 0, `run ${n}: no 429`);
      if (n === 2)
        assert.ok(
          b.remaining < 200 - 40,
          `run 2 starts on what run 1 left: Remaining ${b.remaining}`,
        );
    }
  } finally {
    await deployment.stop();
  }
});
