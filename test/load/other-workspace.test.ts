/**
 * The other-workspace verdict (documented: "Limits apply per workspace, per API key", so another
 * workspace's key has a bucket of its own whatever U25 says within a workspace): a few requests
 * on another workspace's key right after key A's burst (S5w), against what its own bucket held
 * just before (S0w). Judged from the aggregates both engines produce — the Node driver's every
 * sample and k6's per-sample metrics — over simulated deployments.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Aggregates,
  aggregateSamples,
  buildSchedule,
  judgeOtherWorkspace,
  judgeRun,
  type LoadResult,
  MemoryMetrics,
  OTHER_WORKSPACE_REQUESTS,
  readAggregates,
  recordSample,
  type Sample,
  verdictRule,
} from '../../load/lib/index.ts';
import { prng } from './limits.arb.ts';
import { type Limiter, simulateRun, tokenBucket } from './simulated-limiters.ts';

const TEAM = {
  plan: 'team' as const,
  ratePerMin: 120,
  burst: 200,
  rateSource: 'documented' as const,
  burstSource: 'documented' as const,
};

const scheduleOf = (otherWorkspace: boolean) =>
  buildSchedule(TEAM, { keys: 2, otherWorkspace, overdriveS: 8, underRateS: 6, idleS: [10, 20] });

function aggregatesOf(samples: Sample[], engine: 'node' | 'k6'): Aggregates {
  const ctx = { ratePerMin: 120, resetHorizonS: 205 };
  if (engine === 'node') return aggregateSamples(samples, ctx);
  const mem = new MemoryMetrics();
  for (const s of samples) recordSample(s, ctx, mem);
  return readAggregates(mem.read);
}

function run(
  limiters: [Limiter, Limiter, Limiter?],
  engine: 'node' | 'k6' = 'node',
  otherWorkspace = true,
  bend: (s: Sample) => Sample = (s) => s,
): LoadResult {
  const schedule = scheduleOf(otherWorkspace);
  const samples = simulateRun(schedule, {
    limiters,
    ratePerMin: 120,
    jitterS: 0.001,
    random: prng(11),
  }).map(bend);
  return judgeRun({
    engine,
    schedule,
    aggregates: aggregatesOf(samples, engine),
    baseUrl: 'sim://',
    keys: 2,
    startedAt: new Date(0).toISOString(),
    wallSeconds: 0,
    dropped: 0,
  });
}

const verdictOf = (r: LoadResult) => r.verdicts.find((v) => v.id === 'other-workspace')!;

/** A Team bucket that someone else emptied before the run started. */
function drained(): Limiter {
  const b = tokenBucket(200, 2);
  for (let i = 0; i < 200; i++) b.take(-0.001);
  return b;
}

describe('other-workspace verdict', () => {
  test('its rule is documented, judged right after the scope phase', () => {
    assert.equal(verdictRule('other-workspace').provenance, 'documented');
    const s = scheduleOf(true);
    const s5w = s.phases.find((p) => p.name === 'S5w')!;
    const s0w = s.phases.find((p) => p.name === 'S0w')!;
    assert.equal(s5w.key, 2);
    assert.equal(s5w.count, OTHER_WORKSPACE_REQUESTS);
    assert.ok(OTHER_WORKSPACE_REQUESTS <= 10, 'a handful: the other workspace is never drained');
    // Right after S1, beside S5 and S2; its probe beside S0.
    assert.equal(s5w.startS, s.phases.find((p) => p.name === 'S2')!.startS);
    assert.equal(s0w.startS, 0);
    assert.equal(s0w.key, 2);
  });

  for (const engine of ['node', 'k6'] as const) {
    test(`${engine}: per-key buckets pass, and so does one bucket per workspace`, () => {
      const perKey = run([tokenBucket(200, 2), tokenBucket(200, 2), tokenBucket(200, 2)], engine);
      assert.equal(verdictOf(perKey).status, 'pass', verdictOf(perKey).observed);
      assert.deepEqual(
        perKey.verdicts.filter((v) => v.status === 'fail').map((v) => v.id),
        [],
      );
      // U25's other reading (U25=per-workspace): key B is refused, another workspace's key is not.
      const ws = tokenBucket(200, 2);
      const perWorkspace = run([ws, ws, tokenBucket(200, 2)], engine);
      assert.equal(verdictOf(perWorkspace).status, 'pass', verdictOf(perWorkspace).observed);
      assert.equal(perWorkspace.verdicts.find((v) => v.id === 'scope')!.status, 'fail');
    });

    test(`${engine}: one bucket for every workspace fails, as documented`, () => {
      const all = tokenBucket(200, 2);
      const r = run([all, all, all], engine);
      const v = verdictOf(r);
      assert.equal(v.status, 'fail', v.observed);
      assert.equal(v.provenance, 'documented');
      assert.match(v.observed, /× 429 of 5 on another workspace's key/);
      assert.match(v.observed, /its own bucket had 19\d left just before/);
    });
  }

  test('without a key of another workspace: skipped, saying which variable', () => {
    const r = run([tokenBucket(200, 2), tokenBucket(200, 2)], 'node', false);
    const v = verdictOf(r);
    assert.equal(v.status, 'skipped');
    assert.match(v.observed, /not run: needs HARNESS_OTHER_WORKSPACE_KEY/);
    assert.equal(
      r.phases.some((p) => p.name === 'S5w' || p.name === 'S0w'),
      false,
    );
  });

  test('a key whose own bucket was already empty proves nothing: inconclusive, never fail', () => {
    const r = run([tokenBucket(200, 2), tokenBucket(200, 2), drained()]);
    const v = verdictOf(r);
    assert.equal(v.status, 'inconclusive', v.observed);
    assert.match(v.why!, /refused already before key A's burst/);
  });

  test("the other workspace's answers count for its verdict alone (its plan may differ)", () => {
    // Another workspace on Growth: its Limit header is 600, its Reset in other units — none of
    // the plan's own verdicts may read it.
    const growth = (s: Sample): Sample =>
      s.key === 2
        ? { ...s, headers: { ...s.headers, limit: '600', reset: String(Date.now()) } }
        : s;
    const r = run(
      [tokenBucket(200, 2), tokenBucket(200, 2), tokenBucket(1000, 10)],
      'k6',
      true,
      growth,
    );
    assert.deepEqual(
      r.verdicts.filter((v) => v.status === 'fail').map((v) => v.id),
      [],
    );
    assert.equal(verdictOf(r).status, 'pass');
  });

  test('answers neither 2xx nor 429 (a wrong key): inconclusive, naming the variable', () => {
    const agg: Aggregates = {
      S0w: aggregateSamples([sample('S0w', 0, 401)], { ratePerMin: 120, resetHorizonS: 205 }).S0w!,
      S5w: aggregateSamples(
        Array.from({ length: 5 }, (_, i) => sample('S5w', i, 401)),
        { ratePerMin: 120, resetHorizonS: 205 },
      ).S5w!,
    };
    const v = judgeOtherWorkspace(agg, scheduleOf(true));
    assert.equal(v.status, 'inconclusive');
    assert.match(v.why!, /HARNESS_OTHER_WORKSPACE_KEY a valid key/);
  });

  test('too little room left before the burst: inconclusive, with how much', () => {
    const ctx = { ratePerMin: 120, resetHorizonS: 205 };
    const agg: Aggregates = {
      S0w: aggregateSamples([sample('S0w', 0, 200, '2')], ctx).S0w!,
      S5w: aggregateSamples(
        Array.from({ length: 5 }, (_, i) => sample('S5w', i, i < 2 ? 200 : 429, '0')),
        ctx,
      ).S5w!,
    };
    const v = judgeOtherWorkspace(agg, scheduleOf(true));
    assert.equal(v.status, 'inconclusive');
    assert.match(v.why!, /had only 2 request\(s\) left/);
  });
});

function sample(phase: 'S0w' | 'S5w', index: number, status: number, remaining = '0'): Sample {
  return {
    phase,
    key: 2,
    index,
    sentS: 1 + index / 100,
    recvS: 1.001 + index / 100,
    status,
    headers: { limit: '120', remaining, reset: '1750000000', date: new Date(0).toUTCString() },
  };
}
