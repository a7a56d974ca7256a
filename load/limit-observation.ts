/**
 * A plan-limit run as the behaviour snapshot records it: burst and rate as measurements — the
 * estimate, the interval the load verdicts judged the plan by, and whether those verdicts could
 * vouch for it — so a later comparison judges a change by the measurement, not by a fixed
 * tolerance; algorithm, Reset unit and scope as classified.
 */
import type { LoadResult } from './lib/result.ts';
import { RATE_MIN_TOLERANCE } from './lib/verdicts.ts';
import type { Measurement, PlanLimitObservation } from '../core/snapshot/types.ts';

/** Enough digits that rounding never moves a bound past the next token or 0.01/min. */
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The verdict of `id` found the measurement too coarse to judge by. */
const inconclusive = (r: LoadResult, id: string) =>
  r.verdicts.find((v) => v.id === id)?.status === 'inconclusive';

function burstOf(r: LoadResult): Measurement | undefined {
  const b = r.estimates.burst;
  if (b?.value == null || !Number.isFinite(b.low) || !Number.isFinite(b.high)) return undefined;
  return {
    value: r3(b.value),
    low: r3(b.low),
    high: r3(b.high),
    ...(inconclusive(r, 'burst') ? { inconclusive: true as const } : {}),
  };
}

function rateOf(r: LoadResult): Measurement | undefined {
  const rate = r.estimates.rate;
  if (!Number.isFinite(rate.perMin) || !Number.isFinite(rate.relUncertainty)) return undefined;
  // The interval the rate verdict judges by (judgeRateStatus): r̂'s 95 % interval, never
  // narrower than ±1 % (clock error).
  const tol = Math.max(RATE_MIN_TOLERANCE, rate.relUncertainty);
  return {
    value: r3(rate.perMin),
    low: r3(rate.perMin * (1 - tol)),
    high: r3(rate.perMin * (1 + tol)),
    ...(inconclusive(r, 'rate') ? { inconclusive: true as const } : {}),
  };
}

export function limitObservation(r: LoadResult): PlanLimitObservation {
  const burst = burstOf(r);
  const ratePerMin = rateOf(r);
  return {
    plan: r.plan,
    ...(burst ? { burst } : {}),
    ...(ratePerMin ? { ratePerMin } : {}),
    algorithm: r.limiter.algorithm,
    algorithmConfidence: r.limiter.confidence,
    resetUnit: r.resetUnit.unit,
    scope: r.scope.scope,
  };
}
