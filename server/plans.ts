/** The documented plan table (service-api.md, Limits), the limiter of a reading, and the faults that bend it. */
import type { FaultSet } from './faults.ts';
import { JumpFreeLimiter } from './rate-limit/clock-jumps.ts';
import { FixedWindowLimiter } from './rate-limit/fixed-window.ts';
import { SlidingLogLimiter } from './rate-limit/sliding-log.ts';
import { TokenBucketLimiter } from './rate-limit/token-bucket.ts';
import type { LimitConfig } from './rate-limit/types.ts';
import type { Behaviour } from './readings/index.ts';
import type { Plan, Workspace } from './store.ts';

export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, LimitConfig> = {
  team: { ratePerMin: 120, burst: 200 },
  growth: { ratePerMin: 600, burst: 1000 },
};

/** The seeded Enterprise workspace's custom numbers ("custom" in the docs). */
export const ENTERPRISE_DEFAULT: LimitConfig = { ratePerMin: 300, burst: 450 };

/**
 * The per-address bucket of requests that carry no valid key (not in the docs: assumed). Its
 * numbers are unlike every plan's on purpose: an answer to a valid key that took from this
 * bucket instead of the key's shows in X-RateLimit-Limit (ratelimit.plan-limit), where a Growth
 * key's 600 would hide it. More generous than
 * Growth, so no keyless test traffic meets a 429 it did not meet before.
 */
export const ANONYMOUS_LIMIT: LimitConfig = { ratePerMin: 900, burst: 1500 };

/**
 * The limiter of how the burst applies (U24: a token bucket, or a reading's window), blind to the
 * admin clock's jumps (clock-jumps.ts); the bucket starving a client past the rate under its fault.
 */
export function limiterFor(limiter: Behaviour['limiter'], faults: FaultSet): JumpFreeLimiter {
  if (limiter === 'fixed-window') return new JumpFreeLimiter(new FixedWindowLimiter());
  if (limiter === 'sliding-window') return new JumpFreeLimiter(new SlidingLogLimiter());
  const chargeRefused = faults.has('starves-past-burst');
  return new JumpFreeLimiter(new TokenBucketLimiter({ chargeRefused }));
}

/**
 * The limits actually enforced for a workspace. The advertised X-RateLimit-Limit stays the
 * plan's rate: the burst/rate faults lie about nothing in the headers, only in behaviour.
 */
export function enforcedLimit(ws: Workspace, faults: FaultSet): LimitConfig {
  let { ratePerMin, burst } = ws;
  if (faults.has('burst-201')) burst += 1;
  if (faults.has('burst-150')) burst = Math.round(burst * 0.75);
  if (faults.has('rate-130')) ratePerMin = (ratePerMin * 130) / 120;
  if (faults.has('rate-100')) ratePerMin = (ratePerMin * 100) / 120;
  return { ratePerMin, burst };
}
