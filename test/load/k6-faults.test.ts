/**
 * Every limiter fault of the catalogue under k6 (Team, clock 3×, shortened schedule), named by
 * the same verdict as under the Node driver: the expectation table is the one
 * reference-deployment.test.ts holds the Node driver to. One run at a time: k6 and the
 * deployment share two cores, and B̂'s precision is timing.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { LoadResult } from '../../load/lib/index.ts';
import { FAULTS as CATALOGUE } from '../../server/faults.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { explain, failedIds, measure } from './k6-measure.ts';
import { LIMITER_FAULTS } from './limiter-faults.ts';

if (!K6) console.log(`# ${NO_K6}`);

describe('each limiter fault is caught under k6 (Team, clock 3×)', {
  skip: K6 ? false : NO_K6,
}, () => {
  test('every limits fault of the catalogue is in the table', () => {
    const catalogue = CATALOGUE.filter((f) => f.area === 'limits')
      .map((f) => f.name)
      .sort();
    assert.deepEqual(Object.keys(LIMITER_FAULTS).sort(), catalogue);
  });
  const results = new Map<string, LoadResult>();
  before(async () => {
    for (const f of Object.keys(LIMITER_FAULTS))
      results.set(f, await measure('k6', 'team', 3, [f]));
  });
  for (const [fault, expect] of Object.entries(LIMITER_FAULTS)) {
    test(`${fault} → ${expect.verdicts.join(' or ')}${expect.classification ? ' / classification' : ''}`, () => {
      const r = results.get(fault)!;
      assert.equal(r.engine, 'k6');
      const f = failedIds(r);
      const byVerdict = expect.verdicts.some((v) => f.includes(v));
      const byClass = expect.classification === true && r.limiter.algorithm !== 'token-bucket';
      assert.ok(byVerdict || byClass, `${fault} not caught under k6: ${explain(r)}`);
      if (fault === 'reset-ms') assert.equal(r.resetUnit.unit, 'epoch-ms');
      if (fault === 'shared-bucket') assert.equal(r.scope.scope, 'shared');
    });
  }
});
