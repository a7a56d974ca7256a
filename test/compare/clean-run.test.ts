/**
 * A clean run is clean: `npm start`'s reporting (runAll) against the unchanged reference
 * deployment, twice, compares each run's snapshot with the shipped baseline
 * (reports/baselines/reference.snapshot.json) and finds nothing — no timing jitter, no probe
 * label, no limit the run did not measure. The load and fuzz areas are skipped to keep it
 * affordable (≈ 30 s a run); the Gaps table's fill from the load area is test/report/load-gaps.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runAll } from '../../run/run-all.ts';

const dir = mkdtempSync(join(tmpdir(), 'clean-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of a default `npm start`: no target, no baseline override, no faults. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')),
);

describe('a clean run against the reference deployment', { timeout: 600_000 }, () => {
  for (const n of [1, 2]) {
    test(`run ${n}: zero compatibility findings against the shipped baseline`, async () => {
      const { summary } = await runAll({
        skip: ['load', 'fuzz'],
        outDir: join(dir, `run-${n}`),
        env,
        verbose: false,
        log: () => {},
      });
      assert.equal(summary.areas.contracts?.verdict, 'pass', summary.areas.contracts?.headline);
      const c = summary.compatibility;
      assert.ok(c, 'the run was compared with the baseline');
      assert.equal(c.error, undefined, c.error);
      assert.match(c.baseline, /reports\/baselines\/reference\.snapshot\.json$/);
      assert.deepEqual(
        c.findings.map((f) => `${f.level} ${f.rule}: ${f.message}`),
        [],
        'a clean run has no compatibility finding',
      );
      assert.equal(summary.areas.compatibility?.verdict, 'pass');
    });
  }
});
