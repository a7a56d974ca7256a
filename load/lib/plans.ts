/**
 * The plan table of the service docs ("Limits"): requests per minute and burst per plan.
 * Enterprise is "custom": its numbers come from configuration, else from what the deployment
 * announces (`X-RateLimit-Limit` for the rate, `Remaining + 1` of a fresh key for the burst).
 */
import { DOCUMENTED_PLANS } from '../../core/checks/load-verdicts.ts';

export type PlanName = 'team' | 'growth' | 'enterprise';

export const PLAN_NAMES: readonly PlanName[] = ['team', 'growth', 'enterprise'];

/** Where a plan number came from, reported next to every verdict that uses it. */
export type LimitSource = 'documented' | 'config' | 'header' | 'observed';

export interface PlanLimits {
  plan: PlanName;
  /** Requests per minute (the value `X-RateLimit-Limit` must show). */
  ratePerMin: number;
  /** Bucket capacity in requests. */
  burst: number;
  rateSource: LimitSource;
  burstSource: LimitSource;
}

/** Documented numbers; enterprise is custom and has none. */
export const PLAN_TABLE: Readonly<Record<PlanName, { ratePerMin: number; burst: number } | null>> =
  DOCUMENTED_PLANS;

export interface PlanOverrides {
  ratePerMin?: number | undefined;
  burst?: number | undefined;
}

/** What a first probe of the key showed, used when neither the table nor config has a number. */
export interface ProbeHint {
  limitHeader?: number | undefined;
  remaining?: number | undefined;
}

export function isPlanName(s: string): s is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(s);
}

/**
 * Resolves a plan's numbers: documented table first, then configuration, then the probe.
 * Throws when enterprise has neither configuration nor a usable probe: a load run sized by a
 * guess would measure nothing.
 */
export function resolvePlan(
  plan: PlanName,
  overrides: PlanOverrides = {},
  probe: ProbeHint = {},
): PlanLimits {
  const doc = PLAN_TABLE[plan];
  if (doc) {
    return {
      plan,
      ratePerMin: overrides.ratePerMin ?? doc.ratePerMin,
      burst: overrides.burst ?? doc.burst,
      rateSource: overrides.ratePerMin === undefined ? 'documented' : 'config',
      burstSource: overrides.burst === undefined ? 'documented' : 'config',
    };
  }
  const rate = overrides.ratePerMin ?? probe.limitHeader;
  const burst =
    overrides.burst ?? (probe.remaining !== undefined ? probe.remaining + 1 : undefined);
  if (rate === undefined || !(rate > 0))
    throw new Error(
      `plan ${plan}: no rate configured and no X-RateLimit-Limit header to read it from`,
    );
  if (burst === undefined || !(burst > 0))
    throw new Error(`plan ${plan}: no burst configured and no X-RateLimit-Remaining to infer it`);
  return {
    plan,
    ratePerMin: rate,
    burst,
    rateSource: overrides.ratePerMin !== undefined ? 'config' : 'header',
    burstSource: overrides.burst !== undefined ? 'config' : 'observed',
  };
}
