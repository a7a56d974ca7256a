/**
 * k6 for real against the reference deployment, judged side by side with the Node driver: for
 * Team and Growth each engine measures a fresh deployment, load/lib judges both JSONs, and the
 * verdicts must agree while B̂ and r̂ fall within each other's intervals. Team only for now. Clock scales are the
 * ones at which k6 keeps the schedule on a loaded 2-core machine (its VUs run the per-request
 * bookkeeping in JavaScript): Team 2× with the full schedule (its 15 s overdrive gives k6's
 * moments estimator of r̂ 30 accepts; 8 s gives too few), Growth 1× shortened. The real-minute
 * path has its own test (k6-real-time.test.ts).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { LoadResult } from '../../load/lib/index.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { explain, failedIds, measure } from './k6-measure.ts';

if (!K6) console.log(`# ${NO_K6}`);

const overlap = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

describe('k6 and the Node driver side by side on the correct reference deployment', {
  skip: K6 ? false : NO_K6,
}, () => {
  const runs = new Map<string, LoadResult>();
  const cases = [
    ['team', 2, 'full'],
    // Growth is not here yet: under k6 its 1220-request burst drops requests (k6 starts VUs
    // mid-burst) when this shared machine is busy; see load/README.md.
  ] as const;
  before(async () => {
    // One at a time: both engines' timing is what is compared.
    for (const [plan, scale, schedule] of cases)
      for (const engine of ['node', 'k6'] as const)
        runs.set(`${plan}/${engine}`, await measure(engine, plan, scale, [], schedule));
  });
  for (const [plan, scale] of cases) {
    test(`${plan} (clock ${scale}×): same verdicts, B̂ and r̂ within each other's intervals`, () => {
      const n = runs.get(`${plan}/node`)!;
      const k = runs.get(`${plan}/k6`)!;
      assert.equal(k.engine, 'k6');
      assert.deepEqual(failedIds(k), [], explain(k));
      assert.deepEqual(failedIds(k), failedIds(n), `${explain(k)}\n${explain(n)}`);
      for (const r of [n, k]) {
        assert.equal(r.limiter.algorithm, 'token-bucket', explain(r));
        assert.equal(r.resetUnit.unit, 'epoch-s');
        assert.equal(r.scope.scope, 'per-key');
      }
      const bn = n.estimates.burst!;
      const bk = k.estimates.burst!;
      assert.ok(overlap([bn.low, bn.high], [bk.low, bk.high]), `B̂: ${explain(k)}\n${explain(n)}`);
      const rn = n.estimates.rate;
      const rk = k.estimates.rate;
      assert.ok(
        overlap([rn.ciLowPerS, rn.ciHighPerS], [rk.ciLowPerS, rk.ciHighPerS]),
        `r̂: ${explain(k)}\n${explain(n)}`,
      );
    });
  }
});
