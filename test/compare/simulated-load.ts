/**
 * Plan-limit runs of the load engine's real judgement (load/lib `judgeRun`, the Node engine's
 * aggregation) over a simulated token bucket with network jitter (test/load/simulated-limiters.ts):
 * a `LoadResult` as `harness run` gets it from a real run, in milliseconds instead of 100 s.
 * Jitter up to tens of milliseconds is what a loaded CI runner adds to loopback.
 */
import {
  aggregateSamples,
  buildSchedule,
  factContext,
  judgeRun,
  type LoadResult,
  PLAN_TABLE,
  type PlanName,
} from '../../load/lib/index.ts';
import { prng } from '../load/limits.arb.ts';
import { simulateRun, tokenBucket } from '../load/simulated-limiters.ts';

export interface SimulatedDeployment {
  plan: Exclude<PlanName, 'enterprise'>;
  /** The deployment's real bucket; default the plan's. */
  burst?: number;
  ratePerMin?: number;
  /** One-way latency jitter, seconds. */
  jitterS: number;
  seed: number;
}

export function simulatedLoad(d: SimulatedDeployment): LoadResult {
  const plan = PLAN_TABLE[d.plan]!;
  const limits = {
    plan: d.plan,
    ...plan,
    rateSource: 'documented' as const,
    burstSource: 'documented' as const,
  };
  const schedule = buildSchedule(limits, { keys: 2 });
  const burst = d.burst ?? plan.burst;
  const rate = (d.ratePerMin ?? plan.ratePerMin) / 60;
  const samples = simulateRun(schedule, {
    limiters: [tokenBucket(burst, rate), tokenBucket(burst, rate)],
    ratePerMin: d.ratePerMin ?? plan.ratePerMin,
    jitterS: d.jitterS,
    random: prng(d.seed),
  });
  return judgeRun({
    engine: 'node',
    schedule,
    aggregates: aggregateSamples(samples, factContext(schedule)),
    baseUrl: 'http://127.0.0.1:0',
    keys: 2,
    startedAt: new Date(0).toISOString(),
    wallSeconds: 0,
    dropped: 0,
  });
}
