/**
 * Three gate runs back to back against one unchanged Team-plan deployment give the same PASS
 * (issue 19). The reference deployment runs as a separate process (`npm run serve`), reached only
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
 * the test works it out instead of assuming it: with no wait, the key could have been given at
 * most its burst plus the refill over the time the runs took; if the runs sent more than that
 * (less the few 429s allowed), the harness must have waited. At twice real time that holds for
 * runs of up to ~30 s each; a machine slower still is told in a diagnostic, not failed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { gateRunFromEnvFile } from './gate-run-env-file.ts';

/** The deployment's clock against real time, and so its Team refill per real second. */
const TIME_SCALE = 2;
const TEAM_PER_S = (120 / 60) * TIME_SCALE;
const TEAM_BURST = 200;
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
    let keySent = 0;
    const started = Date.now();
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
      keySent += requests.refill?.keySent ?? requests.estimate?.key ?? 0;
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
    // Did the budget bind? Without any wait, the key could have had at most its burst plus the
    // refill over the runs' wall-clock time (the time spent waiting taken out); three runs asking
    // more than that (less the 429s allowed) can only have passed by waiting for the refill.
    const waitedS = waited.reduce((a, b) => a + b, 0);
    const unpacedS = (Date.now() - started) / 1000 - waitedS;
    const supply = TEAM_BURST + TEAM_PER_S * unpacedS;
    const binding = keySent - MAX_429 * 3 > supply;
    t.diagnostic(
      `the key sent ${keySent}; unpaced it could have had ${Math.round(supply)} in ${Math.round(unpacedS)} s; waited ${waited.join(', ')} s`,
    );
    if (binding)
      assert.ok(
        waitedS > 0,
        `the runs sent ${keySent} with the key, more than the ${Math.round(supply)} it could have had without waiting, yet no run waited: ${waited.join(', ')} s`,
      );
    else
      t.diagnostic(
        `this machine ran slowly enough (${Math.round(unpacedS)} s) that the refill covered the three runs: pacing was not needed, so not asserted`,
      );
    // The test must normally exercise the pacing: runs of the usual length (~16 s) bind it.
    assert.ok(keySent > TEAM_BURST + MAX_429 * 3, `the runs sent ${keySent} with the key`);
  } finally {
    await deployment.stop();
  }
});
