/**
 * The load estimators and classifiers as properties over simulated deployments: for random
 * burst, rate and latency jitter, B̂ and r̂ land within the stated tolerances, the limiter family
 * and the Reset unit are named correctly, and each header fault fails its verdict.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type Aggregates,
  aggregateSamples,
  buildSchedule,
  judgeRun,
  type LoadResult,
  MemoryMetrics,
  type PlanLimits,
  readAggregates,
  recordSample,
  type Sample,
  type Schedule,
  wholePhaseFacts,
} from '../../load/lib/index.ts';
import { fcSeed, jitterArb, planNumbersArb, prng, simSeedArb } from './limits.arb.ts';
import {
  fixedWindow,
  type Limiter,
  type ResetStyle,
  type SimOptions,
  simulateRun,
  slidingCounter,
  slidingLog,
  tokenBucket,
} from './simulated-limiters.ts';

const seed = fcSeed();
const params = (numRuns: number) => ({ seed, numRuns });

function limitsOf(n: { burst: number; ratePerMin: number }): PlanLimits {
  return {
    plan: 'enterprise',
    ratePerMin: n.ratePerMin,
    burst: n.burst,
    rateSource: 'config',
    burstSource: 'config',
  };
}

/**
 * node: every sample. k6: what plan-limits.ts records — per-sample metric updates, plus the
 * whole-phase facts of the steady phases, which one VU runs from start to end. k6-split: per
 * sample only, as when S2 is split over several generators (the moments estimator).
 */
type Engine = 'node' | 'k6' | 'k6-split';

function judge(schedule: Schedule, samples: Sample[], engine: Engine): LoadResult {
  const { limits, r } = schedule;
  const ctx = { ratePerMin: limits.ratePerMin, resetHorizonS: Math.max(limits.burst / r, 60) + 5 };
  let aggregates: Aggregates;
  if (engine === 'node') aggregates = aggregateSamples(samples, ctx);
  else {
    const mem = new MemoryMetrics();
    for (const s of samples) recordSample(s, ctx, mem);
    if (engine === 'k6')
      for (const p of schedule.phases.filter((x) => x.kind === 'steady'))
        wholePhaseFacts(
          samples.filter((s) => s.phase === p.name),
          ctx,
          mem,
        );
    aggregates = readAggregates(mem.read);
  }
  return judgeRun({
    engine: engine === 'node' ? 'node' : 'k6',
    schedule,
    aggregates,
    baseUrl: 'sim://',
    keys: 2,
    startedAt: new Date(0).toISOString(),
    wallSeconds: 0,
    dropped: 0,
  });
}

function run(
  n: { burst: number; ratePerMin: number },
  make: () => Limiter,
  jitterS: number,
  simSeed: number,
  extra: Partial<SimOptions> = {},
): { schedule: Schedule; samples: Sample[] } {
  const schedule = buildSchedule(limitsOf(n), { keys: 2 });
  const samples = simulateRun(schedule, {
    limiters: [make(), make()],
    ratePerMin: n.ratePerMin,
    jitterS,
    random: prng(simSeed),
    ...extra,
  });
  return { schedule, samples };
}

const verdict = (res: LoadResult, id: string) => res.verdicts.find((v) => v.id === id)?.status;

describe('load estimators on a simulated token bucket', () => {
  for (const engine of ['node', 'k6', 'k6-split'] as const) {
    test(`${engine}: B̂ within min(3, its uncertainty) of B and the interval holds B`, () => {
      fc.assert(
        fc.property(planNumbersArb, jitterArb, simSeedArb, (n, jitter, s) => {
          const { schedule, samples } = run(
            n,
            () => tokenBucket(n.burst, n.ratePerMin / 60),
            jitter,
            s,
          );
          const b = judge(schedule, samples, engine).estimates.burst;
          assert.ok(b && b.value !== null, `no B̂: ${JSON.stringify(b)}`);
          assert.ok(
            b.low <= n.burst && n.burst < b.high,
            `B=${n.burst} outside [${b.low}, ${b.high})`,
          );
          assert.ok(
            Math.abs(b.value - n.burst) <= Math.min(3, b.uncertainty) + 1e-9,
            `B̂ ${b.value} ± ${b.uncertainty} vs B ${n.burst}`,
          );
        }),
        params(30),
      );
    });

    test(`${engine}: r̂ within ±3 % (and within its own interval or ±1 %)`, () => {
      fc.assert(
        fc.property(planNumbersArb, jitterArb, simSeedArb, (n, jitter, s) => {
          const { schedule, samples } = run(
            n,
            () => tokenBucket(n.burst, n.ratePerMin / 60),
            jitter,
            s,
          );
          const r = judge(schedule, samples, engine).estimates.rate;
          const rel = Math.abs(r.perMin / n.ratePerMin - 1);
          assert.ok(rel <= 0.03, `r̂ ${r.perMin} vs ${n.ratePerMin}`);
          assert.ok(rel <= Math.max(0.01, r.relUncertainty), `rel ${rel} > CI ${r.relUncertainty}`);
        }),
        params(30),
      );
    });

    test(`${engine}: a correct token bucket is named so and passes every verdict`, () => {
      fc.assert(
        fc.property(planNumbersArb, jitterArb, simSeedArb, (n, jitter, s) => {
          const { schedule, samples } = run(
            n,
            () => tokenBucket(n.burst, n.ratePerMin / 60),
            jitter,
            s,
          );
          const res = judge(schedule, samples, engine);
          assert.equal(res.limiter.algorithm, 'token-bucket', res.limiter.evidence.join('\n'));
          assert.equal(res.resetUnit.unit, 'epoch-s');
          assert.equal(res.scope.scope, 'per-key');
          const failed = res.verdicts.filter((v) => v.status === 'fail');
          assert.deepEqual(failed, []);
        }),
        params(20),
      );
    });
  }

  // When the refill during the burst is within the timing uncertainty of a whole number of tokens,
  // B and B ± 1 both fit the measurement: the interval then holds two integers and says so.
  test('a burst off by one (B ± 1) fails the burst verdict unless the interval holds two integers', () => {
    fc.assert(
      fc.property(
        planNumbersArb,
        fc.constantFrom(-1, 1),
        fc.double({ min: 0.0001, max: 0.002, noNaN: true }),
        simSeedArb,
        (n, off, jitter, s) => {
          const { schedule, samples } = run(
            n,
            () => tokenBucket(n.burst + off, n.ratePerMin / 60),
            jitter,
            s,
          );
          const res = judge(schedule, samples, 'node');
          const b = res.estimates.burst!;
          const ambiguous = Math.ceil(b.low) + 1 < b.high;
          assert.ok(verdict(res, 'burst') === 'fail' || ambiguous, JSON.stringify(b));
        },
      ),
      params(30),
    );
  });

  test('a rate 8 % off fails the rate verdict', () => {
    fc.assert(
      fc.property(
        planNumbersArb,
        fc.constantFrom(0.92, 1.08),
        jitterArb,
        simSeedArb,
        (n, k, jitter, s) => {
          const { schedule, samples } = run(
            n,
            () => tokenBucket(n.burst, (k * n.ratePerMin) / 60),
            jitter,
            s,
          );
          assert.equal(verdict(judge(schedule, samples, 'node'), 'rate'), 'fail');
        },
      ),
      params(20),
    );
  });
});

describe('limiter classification on simulated window limiters (60 s windows)', () => {
  const windows: Array<
    [string, (n: { burst: number; ratePerMin: number }, quota: number, offset: number) => Limiter]
  > = [
    ['fixed-window', (_n, q, off) => fixedWindow(q, 60, off)],
    ['sliding-log', (_n, q) => slidingLog(q, 60)],
    ['sliding-counter', (_n, q, off) => slidingCounter(q, 60, off)],
  ];
  for (const [kind, make] of windows) {
    test(`${kind} is named (or listed as the alternative) and fails the algorithm verdict`, () => {
      fc.assert(
        fc.property(
          planNumbersArb,
          fc.boolean(),
          fc.double({ min: 0, max: 59.99, noNaN: true }),
          simSeedArb,
          (n, quotaIsBurst, offset, s) => {
            // A quota above what S1 sends never 429s: nothing to classify (the burst verdict fails instead).
            const quota = quotaIsBurst ? n.burst : Math.min(n.burst, n.ratePerMin);
            const { schedule, samples } = run(n, () => make(n, quota, offset), 0.001, s);
            const res = judge(schedule, samples, 'node');
            const named = [res.limiter.algorithm, ...res.limiter.alternatives];
            assert.notEqual(res.limiter.algorithm, 'token-bucket', res.limiter.evidence.join('\n'));
            assert.ok(
              named.includes(kind as never),
              `${named} — ${res.limiter.evidence.join(' | ')}`,
            );
            assert.equal(verdict(res, 'algorithm'), 'fail');
          },
        ),
        params(25),
      );
    });
  }
});

describe('headers of a simulated token bucket', () => {
  test('the Reset unit is read against the Date header', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ResetStyle>('epoch-s', 'epoch-ms', 'delta-s', 'http-date'),
        fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }),
        simSeedArb,
        (style, epoch0, s) => {
          const n = { burst: 200, ratePerMin: 120 };
          const { schedule, samples } = run(n, () => tokenBucket(200, 2), 0.001, s, {
            resetStyle: style,
            epoch0,
          });
          const res = judge(schedule, samples, 'node');
          assert.equal(res.resetUnit.unit, style, res.resetUnit.evidence.join('; '));
          assert.equal(verdict(res, 'reset-unit'), style === 'epoch-s' ? 'pass' : 'fail');
        },
      ),
      params(12),
    );
  });

  test('Remaining off by one fails a Remaining verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(-1, 1), simSeedArb, (off, s) => {
        const n = { burst: 200, ratePerMin: 120 };
        const { schedule, samples } = run(n, () => tokenBucket(200, 2), 0.001, s, {
          remainingOffset: off,
        });
        const res = judge(schedule, samples, 'node');
        const failed = res.verdicts.filter((v) => v.status === 'fail').map((v) => v.id);
        assert.ok(
          failed.some((id) => id.startsWith('remaining-')),
          failed.join(','),
        );
      }),
      params(6),
    );
  });

  test('a 429 without Retry-After fails retry-after-present', () => {
    const n = { burst: 200, ratePerMin: 120 };
    const { schedule, samples } = run(n, () => tokenBucket(200, 2), 0.001, 7, {
      retryAfter: false,
    });
    assert.equal(verdict(judge(schedule, samples, 'node'), 'retry-after-present'), 'fail');
  });

  test('one bucket shared by both keys is reported as shared scope', () => {
    const n = { burst: 200, ratePerMin: 120 };
    const schedule = buildSchedule(limitsOf(n), { keys: 2 });
    const shared = tokenBucket(200, 2);
    const samples = simulateRun(schedule, {
      limiters: [shared, shared],
      ratePerMin: 120,
      jitterS: 0.001,
      random: prng(3),
    });
    const res = judge(schedule, samples, 'node');
    assert.equal(res.scope.scope, 'shared');
    assert.equal(verdict(res, 'scope'), 'fail');
  });
});
