/**
 * The one honest end-to-end run with real load: a whole `npm start` of the unchanged embedded
 * deployment — contract suite and the real plan-limit area (≈100 s; fuzz skipped, it adds
 * nothing to the snapshot) — compared with the shipped baseline, itself a real full run taken on
 * another day: zero findings. The measurements are whatever this machine gives at the time: a
 * busy runner widens the intervals, or makes a measurement inconclusive (a note), never a
 * finding. The same reporting over many noisy measurements: test/compare/clean-run.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REFERENCE_BASELINE } from '../../compat/compare/baseline.ts';
import { loadSnapshot } from '../../compat/compare/load-snapshot.ts';
import { verdictTable } from '../../report/console.ts';
import { runAll } from '../../run/run-all.ts';

const dir = mkdtempSync(join(tmpdir(), 'clean-full-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')),
);

test('a full run with real load against the shipped baseline: zero findings', {
  timeout: 600_000,
}, async () => {
  const base = loadSnapshot(REFERENCE_BASELINE);
  assert.ok(base.exercised?.areas.includes('load'), 'the shipped baseline measured plan limits');
  const { summary } = await runAll({
    skip: ['fuzz'],
    outDir: join(dir, 'run'),
    env,
    verbose: false,
    log: () => {},
  });
  assert.equal(summary.areas.contracts?.verdict, 'pass', summary.areas.contracts?.headline);
  const snap = loadSnapshot(join(dir, 'run'));
  assert.ok(snap.exercised?.areas.includes('load'), summary.areas.load?.headline);
  for (const l of snap.limits)
    assert.ok(l.burst?.low !== undefined && l.ratePerMin?.low !== undefined, JSON.stringify(l));
  const c = summary.compatibility;
  assert.ok(c, 'compared with the shipped baseline');
  assert.equal(c.error, undefined, c.error);
  assert.deepEqual(
    c.findings.map((f) => `${f.level} ${f.rule}: ${f.message}`),
    [],
    `limits now ${JSON.stringify(snap.limits)}; baseline ${JSON.stringify(base.limits)}`,
  );
  const row = verdictTable(summary.areas).find((l) => l.startsWith('compatibility'));
  assert.match(row ?? '', /^compatibility\s+PASS\b/);
});
