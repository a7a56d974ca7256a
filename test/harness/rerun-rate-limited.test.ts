/**
 * Three gate runs back to back against one unchanged Team-plan deployment give the same PASS. The reference deployment runs as a separate process (`npm run serve`), reached only
 * through the credentials env file it writes, where HARNESS_API_KEY is workspace A's Team key
 * (burst 200, 120/min). Each `harness run --skip load` is a separate process too. A gate run sends
 * about 340 requests, some 200 with that key — its whole burst — so unpaced, the second run
 * started on an empty bucket and scored the 429s it caused as contract and fuzz failures.
 *
 * Affordable for CI: the deployment's clock runs twice real time (`--time-scale 2`: its bucket
 * refills 4 requests per real second instead of 2). The harness is unchanged — it paces by the
 * headers, assuming Limit/60 per second, and sees the faster refill in Remaining. Besides the same
 * PASS the test asserts the pacing itself: hardly any 429 came back, none was scored, none given
 * up — and, since the three runs ask more of the key than its burst plus what refills meanwhile,
 * some run waited.
 *
 * Why twice and not five times: a run now sends only ~200 requests with this key (the rest go
 * with the other keys of the env file), so at five times (10 a second) the refill during a 16 s
 * run covered it, and on a busy CI machine no run waited at all — "some run waited" failed
 * while the harness was right. Whether the budget binds depends on how long the runs take, so
 * the test works it out for each run instead of assuming it (test/harness/budget-binding.ts): a run
 * that sent more with the key than it could have had without waiting must have waited. At twice
 * real time that holds from the second run on for runs of up to ~30 s; a machine slower still is
 * told in a diagnostic, not failed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { type Binding, budgetBinding } from './budget-binding.ts';
import { gateRunFromEnvFile } from './gate-run-env-file.ts';

/** The deployment's clock against real time, and so its Team refill per real second. */
const TIME_SCALE = 2;
const TEAM_PER_S = (120 / 60) * TIME_SCALE;
/** The 429s a run may receive (asserted below): what a budget that never binds could explain. */
const MAX_429 = 10;

test('three gate runs back to back against one Team-plan deployment: the same PASS, no 429 scored', {
  timeout: 8 * 60_000,
}, async (t) => {
  const deployment = await spawnServe(['--time-scale', String(TIME_SCALE)]);
  try {
    const vars = deployment.vars;
    assert.ok(vars.HARNESS_API_KEY && vars.HARNESS_BASE_URL, 'the env file configures the run');
    const dir = mkdtempSync(join(tmpdir(), 'harness-rerun-'));
    const seen: string[] = [];
    const waited: number[] = [];
    const bindings: Binding[] = [];
    for (const n of [1, 2, 3]) {
      const out = join(dir, `run-${n}`);
      const run = await gateRunFromEnvFile(deployment.envFile, out);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      const areas = Object.entries(summary.areas).filter(([a]) => a !== 'compatibility');
      const failures = areas.flatMap(([a, s]) =>
        [...s.documentedFailures, ...s.assumptionMismatches].map(
          (f) => `${a}: [${f.check}] ${f.received}`,
        ),
      );
      const requests = summary.requests!;
      t.diagnostic(
        `run ${n}: exit ${run.code}, ${Math.round(summary.durationMs / 1000)} s, requests ${JSON.stringify(requests)}`,
      );
      assert.equal(
        run.code,
        0,
        `run ${n} exit code\n${failures.join('\n')}\n${run.output.slice(-3000)}`,
      );
      assert.equal(summary.verdict, 'pass', `run ${n}`);
      assert.deepEqual(
        failures.filter((f) => /\b429\b|rate.?limit|EPIPE|ECONNRESET/i.test(f)),
        [],
        `run ${n}: nothing scored for the key's own rate limit`,
      );
      for (const [a, s] of areas) assert.notEqual(s.verdict, 'fail', `run ${n}: ${a}`);
      // Paced, not merely tolerated: hardly a 429, nothing given up, every contract test ran.
      assert.ok(requests.rateLimited <= MAX_429, `run ${n}: ${requests.rateLimited} 429s received`);
      assert.equal(requests.inconclusive, 0, `run ${n}: no request given up`);
      waited.push(requests.waitedS);
      bindings.push(budgetBinding(summary, TEAM_PER_S, MAX_429));
      assert.deepEqual(
        summary.areas.contracts!.notRun,
        [],
        `run ${n}: every contract test ran (none inconclusive)`,
      );
      // Both areas ran whole: each sent what the cost line said it would (a Team key's
      // gate-sized fuzz is about 50 requests, the contract suite some 280), within 20 %.
      for (const area of ['contracts', 'fuzz'] as const) {
        const sent = requests.byArea[area] ?? 0;
        const planned = requests.estimate?.byArea[area] ?? 0;
        assert.ok(
          planned > 0 && sent >= 0.8 * planned && sent <= 1.2 * planned,
          `run ${n}: ${area} sent ${sent}, the cost line said ${planned}: ${JSON.stringify(requests)}`,
        );
      }
      assert.match(run.output, /requests sent: contracts \d+ · fuzz \d+ · total \d+/);
      seen.push(`${summary.verdict} ${summary.tests.passed}/${summary.tests.total}`);
    }
    assert.equal(new Set(seen).size, 1, `the same verdict each time: ${seen.join(' | ')}`);
    // Did the budget bind? Worked out per run, not assumed (test/harness/budget-binding.ts): a run
    // that sent more with the key than it could have had without waiting must have waited.
    for (const [i, b] of bindings.entries()) {
      t.diagnostic(
        `run ${i + 1}: ${b.binding ? 'the budget bound' : 'the refill covered it'}: ${b.why}`,
      );
      if (b.binding) assert.ok(waited[i]! > 0, `run ${i + 1} did not wait, yet ${b.why}`);
    }
    // At twice real time, runs of the usual length (~16 s) bind it from the second run on: the
    // test exercises the pacing unless the machine is very slow, which it then says.
    if (!bindings.some((b) => b.binding))
      t.diagnostic(
        'the refill covered every run on this machine (slow runs): pacing was not needed, so not asserted',
      );
  } finally {
    await deployment.stop();
  }
});
