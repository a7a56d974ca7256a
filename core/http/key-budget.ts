/**
 * The run's key as a budget, read from the preflight's one answer (X-RateLimit-Limit and
 * -Remaining): its refill rate, its burst, what a run may spend of it now, the reserve it leaves
 * for others, and how long a number of requests takes at it. The cost line printed before a run
 * (run/cost-estimate.ts), the fuzz's size on a Team key and the pacing's reserve all read it here.
 *
 * The burst is the documented plan's when the Limit is a documented plan's rate or the key is
 * listed under a plan (HARNESS_TEAM_KEYS, …), HARNESS_ENTERPRISE_BURST for an Enterprise key, and
 * otherwise what the answer shows of it: Remaining + 1 (a lower bound, said so).
 */
import { DOCUMENTED_PLANS } from '../checks/load-verdicts.ts';
import type { HarnessConfig, PlanName } from '../config.ts';
import type { RateHeaders } from './rate-budget.ts';

/** The reserve's default share of the burst: what a run leaves for everyone else on the key. */
export const DEFAULT_RESERVE_SHARE = 0.2;

export interface KeyBudget {
  /** Requests per minute (X-RateLimit-Limit): the refill. */
  limitPerMin: number;
  /** Requests left when the preflight asked (X-RateLimit-Remaining). */
  remaining: number;
  burst: number;
  /** Where the burst comes from. */
  burstFrom: string;
  /** The plan the key is on, when known (by its Limit or by the user's plan lists). */
  plan?: PlanName;
  /** Requests of Remaining the run leaves for others. */
  reserve: number;
  /** Where the reserve comes from. */
  reserveFrom: string;
}

/** The plan whose documented rate is `limit`, if any. */
const planOfLimit = (limit: number): PlanName | undefined =>
  (['team', 'growth'] as const).find((p) => DOCUMENTED_PLANS[p].ratePerMin === limit);

/** The key's budget from the preflight's rate headers; undefined when they say nothing usable. */
export function keyBudget(
  rate: RateHeaders | undefined,
  cfg: Pick<HarnessConfig, 'apiKey' | 'planKeys' | 'enterpriseLimits' | 'reserve'>,
): KeyBudget | undefined {
  if (!rate || rate.nonsense || rate.limit === undefined || rate.remaining === undefined)
    return undefined;
  const listed = (['team', 'growth', 'enterprise'] as const).find(
    (p) => cfg.apiKey !== undefined && cfg.planKeys[p].includes(cfg.apiKey),
  );
  const plan = listed ?? planOfLimit(rate.limit);
  const documented = plan && plan !== 'enterprise' ? DOCUMENTED_PLANS[plan] : undefined;
  const [burst, burstFrom] = documented
    ? [documented.burst, `the documented ${plan} plan`]
    : plan === 'enterprise' && cfg.enterpriseLimits.burst
      ? [cfg.enterpriseLimits.burst, 'HARNESS_ENTERPRISE_BURST']
      : [rate.remaining + 1, 'at least Remaining + 1 (the plan is not known)'];
  const [reserve, reserveFrom] =
    cfg.reserve !== undefined
      ? [cfg.reserve, '--reserve / HARNESS_RESERVE']
      : [
          Math.round(burst * DEFAULT_RESERVE_SHARE),
          `${DEFAULT_RESERVE_SHARE * 100} % of the burst`,
        ];
  return {
    limitPerMin: rate.limit,
    remaining: rate.remaining,
    burst,
    burstFrom,
    ...(plan ? { plan } : {}),
    reserve,
    reserveFrom,
  };
}

/** How `requests` sent with the key spend it: from what is available now, the rest at the refill. */
export interface BudgetTime {
  /** Requests the run may send at once: Remaining above the reserve. */
  availableNow: number;
  /** Requests that must wait for the refill. */
  refilled: number;
  /** The least time the budget makes them take, s (the refill's share; sending takes more). */
  waitS: number;
}

export function budgetTime(requests: number, b: KeyBudget): BudgetTime {
  const availableNow = Math.max(0, b.remaining - b.reserve);
  const refilled = Math.max(0, requests - availableNow);
  return { availableNow, refilled, waitS: (refilled * 60) / b.limitPerMin };
}
