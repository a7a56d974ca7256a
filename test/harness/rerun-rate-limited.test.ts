/**
 * Three gate runs back to back against one unchanged Team-plan deployment give the same PASS
 * (issue 19). The reference deployment runs as a separate process (`npm run serve`), reached only
 * through the credentials env file it writes, where HARNESS_API_KEY is workspace A's Team key
 * (burst 200, 120/min). Each `harness run --skip load` is a separate process too. A gate run sends
 * about 580 requests, most with that key — far more than the burst — so unpaced, the second run
 * started on an empty bucket and scored the 429s it caused as contract and fuzz failures.
 *
 * Affordable for CI: the deployment's clock runs 5× real time (`--time-scale 5`: its bucket refills
 * 10 requests per real second instead of 2). The harness is unchanged — it paces by the headers,
 * assuming Limit/60 per second, and sees the faster refill in Remaining. At real time three paced
 * runs took about 7 minutes (the second and third 140–150 s each, waiting for the refill); here
 * about 2½. The budget
 * still binds at this scale — a run sends more than the burst plus what refills meanwhile, so
 * some run waits — and the old, unpaced harness received some 250 429s in its third run (it retried
 * them; at real time it could not and failed the second run). So besides the same PASS the test
 * asserts the pacing itself: it waited, hardly any 429 came back, none was scored, none given up.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { gateRunFromEnvFile } from './gate-run-env-file.ts';

test('three gate runs back to back against one Team-plan deployment: the same PASS, no 429 scored', {
  timeout: 8 * 60_000,
}, async (t) => {
  const deployment = await spawnServe(['--time-scale', '5']);
  try {
    const vars = deployment.vars;
    assert.ok(vars.HARNESS_API_KEY && vars.HARNESS_BASE_URL, 'the env file configures the run');
    const dir = mkdtempSync(join(tmpdir(), 'harness-rerun-'));
    const seen: string[] = [];
    const waited: number[] = [];
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
      assert.ok(requests.rateLimited <= 10, `run ${n}: ${requests.rateLimited} 429s received`);
      assert.equal(requests.inconclusive, 0, `run ${n}: no request given up`);
      waited.push(requests.waitedS);
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
    // The key's budget was binding (here a run sends more than the burst plus what refills while
    // it runs, so some run waits; on a faster machine all the more): the pacing did the work.
    assert.ok(
      waited.some((s) => s > 0),
      `some run waited for the refill: ${waited.join(', ')} s`,
    );
  } finally {
    await deployment.stop();
  }
});
