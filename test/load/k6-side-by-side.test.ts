/**
 * k6 for real against the reference deployment, judged side by side with the Node driver: Team
 * and Growth run together (as `--plan all` runs them) on a fresh deployment, once per engine;
 * load/lib judges both JSONs. Per plan the verdicts must agree (none failing), the limiter,
 * Reset unit and scope be named alike, and B̂ and r̂ lie within each other's intervals (as the
 * verdicts judge them: B̂'s interval, r̂'s 95 % CI floored at ±1 %).
 * Both engines get the same schedule (clock 3×, shortened, bursts at 500 requests per wall
 * second — k6's default cap; the Node driver's own 4000/s outruns this 2-core machine), so they
 * differ only in how they send: ~20 s per engine. The real-minute path has its own test
 * (k6-real-time.test.ts).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type LoadResult, type PlanName, RATE_MIN_TOLERANCE } from '../../load/lib/index.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { explain, failedIds, measurePlans, measureWithOneRetry, skipWhenBusy } from './measure.ts';

if (!K6) console.log(`# ${NO_K6}`);

const PLANS: readonly PlanName[] = ['team', 'growth'];
const SCALE = 3;

const overlap = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

/** r̂'s interval as the rate verdict judges it: the 95 % CI, floored at ±1 % (clock error). */
function judgedRate(r: LoadResult): [number, number] {
  const { perS, relUncertainty } = r.estimates.rate;
  const tol = Math.max(RATE_MIN_TOLERANCE, relUncertainty);
  return [perS * (1 - tol), perS * (1 + tol)];
}

/**
 * What differs between the two engines' judgement of one plan, or undefined. A verdict k6
 * passes where the Node driver's own measurement was too coarse to decide (inconclusive) is
 * not a difference: k6 measured more precisely that run. Every other status must be the same.
 */
function difference(n: LoadResult, k: LoadResult): string | undefined {
  const problems: string[] = [];
  if (failedIds(n).length || failedIds(k).length)
    problems.push(`failed: node [${failedIds(n)}], k6 [${failedIds(k)}]`);
  const differ = k.verdicts.filter((v, i) => {
    const other = n.verdicts[i]!;
    assert.equal(other.id, v.id);
    return v.status !== other.status && !(v.status === 'pass' && other.status === 'inconclusive');
  });
  if (differ.length)
    problems.push(
      `k6 ${differ.map((v) => `${v.id} ${v.status}`).join(', ')} where node did otherwise`,
    );
  if (n.limiter.algorithm !== k.limiter.algorithm)
    problems.push(`limiter ${n.limiter.algorithm} vs ${k.limiter.algorithm}`);
  if (n.resetUnit.unit !== k.resetUnit.unit) problems.push('Reset unit');
  if (n.scope.scope !== k.scope.scope) problems.push('scope');
  const bn = n.estimates.burst;
  const bk = k.estimates.burst;
  if (!bn || !bk || !overlap([bn.low, bn.high], [bk.low, bk.high]))
    problems.push(`B̂ ${bn?.low}…${bn?.high} vs ${bk?.low}…${bk?.high}`);
  if (!overlap(judgedRate(n), judgedRate(k)))
    problems.push(`r̂ ${judgedRate(n).join('…')} vs ${judgedRate(k).join('…')}`);
  return problems.length ? `${n.plan}: ${problems.join('; ')}` : undefined;
}

describe('k6 and the Node driver side by side on the correct reference deployment', {
  skip: K6 ? false : NO_K6,
}, () => {
  let node: LoadResult[] = [];
  let k6: LoadResult[] = [];
  let busy: string | undefined;
  before(async () => {
    // One engine at a time: their timing is what is compared.
    const both = async (slower: number) => {
      const n = await measurePlans('node', PLANS, SCALE / slower, { maxRealRate: 500 });
      const k = await measurePlans('k6', PLANS, SCALE / slower, { maxRealRate: 500 });
      return [...n, ...k] as const;
    };
    const { results, busy: b } = await measureWithOneRetry(
      'side by side',
      both,
      (all) =>
        PLANS.map((_, i) => difference(all[i]!, all[i + PLANS.length]!))
          .filter(Boolean)
          .join(' | ') || undefined,
    );
    busy = b;
    node = results.slice(0, PLANS.length);
    k6 = results.slice(PLANS.length);
  });
  for (const [i, plan] of PLANS.entries()) {
    test(`${plan} (clock ${SCALE}×): same verdicts, B̂ and r̂ within each other's intervals`, (t) => {
      if (skipWhenBusy(t, busy)) return;
      const n = node[i]!;
      const k = k6[i]!;
      assert.equal(n.plan, plan);
      assert.equal(k.plan, plan);
      assert.equal(n.engine, 'node');
      assert.equal(k.engine, 'k6');
      assert.equal(k.requests.dropped, 0, explain(k));
      assert.equal(k.estimates.rate.method, 'regression', 'k6 saw all of S2 in one VU');
      assert.equal(difference(n, k), undefined, `${explain(k)}\n${explain(n)}`);
      for (const r of [n, k]) {
        assert.equal(r.limiter.algorithm, 'token-bucket', explain(r));
        assert.equal(r.resetUnit.unit, 'epoch-s');
        assert.equal(r.scope.scope, 'per-key');
      }
    });
  }
});
