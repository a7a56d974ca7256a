/**
 * Load verdicts in the one failure shape: a failed documented limit is a documented failure, a
 * failed assumption (or observation) an assumption mismatch, an inconclusive verdict not run —
 * and a pass nothing at all. loadArea files them without translating anything itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { LoadResult } from '../../load/lib/result.ts';
import { loadFailures, loadNotRun } from '../../load/failures.ts';
import { loadArea } from '../../load/load-step.ts';

const passing = JSON.parse(
  readFileSync(new URL('../report/fixtures/load-team.json', import.meta.url), 'utf8'),
) as LoadResult;

function withStatuses(s: Record<string, 'fail' | 'inconclusive'>): LoadResult {
  const r = structuredClone(passing);
  for (const v of r.verdicts) if (s[v.id]) v.status = s[v.id]!;
  return r;
}

test('a passing run is no failure and nothing not run', () => {
  assert.deepEqual(loadFailures(passing), []);
  assert.deepEqual(loadNotRun(passing), []);
  assert.equal(loadArea([passing]).verdict, 'pass');
});

test('failed verdicts keep their provenance; inconclusive ones are not run', () => {
  const r = withStatuses({ burst: 'fail', algorithm: 'fail', rate: 'inconclusive' });
  const fs = loadFailures(r);
  assert.deepEqual(
    fs.map((f) => [f.check, f.provenance]),
    [
      ['load.burst', 'documented'],
      ['load.algorithm', 'assumed'],
    ],
  );
  const burst = r.verdicts.find((v) => v.id === 'burst')!;
  assert.equal(fs[0]!.received, burst.observed);
  assert.equal(fs[0]!.expected, burst.expected);
  assert.match(fs[0]!.rule, /^team: /);
  assert.deepEqual(
    loadNotRun(r).map((n) => n.name),
    ['team rate'],
  );
  const area = loadArea([r]);
  assert.equal(area.verdict, 'fail');
  assert.deepEqual(
    area.documentedFailures.map((f) => f.check),
    ['load.burst'],
  );
  assert.deepEqual(
    area.assumptionMismatches.map((f) => f.check),
    ['load.algorithm'],
  );
});

test('an observed rule that fails is filed as an assumption mismatch, not a documented failure', () => {
  const area = loadArea([withStatuses({ 'only-200-or-429': 'fail' })]);
  assert.equal(area.verdict, 'warn');
  assert.deepEqual(
    area.assumptionMismatches.map((f) => f.check),
    ['load.only-200-or-429'],
  );
});
