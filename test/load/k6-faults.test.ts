/**
 * Every limiter fault of the catalogue under k6, named by the same verdict as under the Node
 * driver: the expectation table is the one reference-deployment.test.ts holds the Node driver
 * to, at the same clock (Team, 10×, shortened schedule). Three deployments at a time, each with
 * its own k6 (the Node table runs three at a time too); a fault that was not caught is measured
 * once more only when the machine demonstrably could not keep the schedule.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { LoadResult } from '../../load/lib/index.ts';
import { FAULTS as CATALOGUE } from '../../server/faults.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { explain, measure, skipWhenBusy } from './measure.ts';
import { LIMITER_FAULTS, missedFault } from './limiter-faults.ts';
import { measureLimiterFaults } from './measure-limiter-faults.ts';

if (!K6) console.log(`# ${NO_K6}`);

describe('each limiter fault is caught under k6 (Team, clock 10×)', {
  skip: K6 ? false : NO_K6,
}, () => {
  test('every limits fault of the catalogue is in the table', () => {
    const catalogue = CATALOGUE.filter((f) => f.area === 'limits')
      .map((f) => f.name)
      .sort();
    assert.deepEqual(Object.keys(LIMITER_FAULTS).sort(), catalogue);
  });
  const results = new Map<string, LoadResult>();
  const busy = new Map<string, string | undefined>();
  before(async () => {
    await measureLimiterFaults(
      (fault, slower) => measure('k6', 'team', 10 / slower, { faults: [fault] }),
      results,
      busy,
    );
  });
  for (const [fault, expect] of Object.entries(LIMITER_FAULTS)) {
    test(`${fault} → ${expect.verdicts.join(' or ')}`, (t) => {
      if (skipWhenBusy(t, busy.get(fault))) return;
      const r = results.get(fault)!;
      assert.equal(r.engine, 'k6');
      assert.equal(missedFault(fault, r), undefined, explain(r));
    });
  }
});
