import type { Decision, LimitConfig, Limiter } from './types.ts';

/**
 * A jump of the service clock through the dashboard stand-in (POST /admin/clock/advance: the SLA
 * tests make an hour pass in one request) is not time passing for the rate limiter. Staging has
 * no such clock: a key's bucket there refills in real time only. Here a jump refilled it early,
 * so a gate run on a Team key took less than the refill its requests need, by however far its
 * SLA tests jumped — and the time the cost line prints could not be held to the run.
 *
 * Wraps any limiter (the correct one and the faulty ones alike): it sees the service clock minus
 * every jump so far, and its Reset is moved back onto the service clock, so `X-RateLimit-Reset`
 * stays in step with `Date`. The clock's own scale is still time passing (tests that run a
 * minute in a second mean it), and so is `ServiceClock.advance` called directly by a unit test.
 */
export class JumpFreeLimiter implements Limiter {
  private jumpedMs = 0;

  constructor(private readonly inner: Limiter) {}

  /** The service clock jumped `ms` forward: none of it refills a bucket. */
  jumped(ms: number): void {
    this.jumpedMs += ms;
  }

  take(bucketKey: string, cfg: LimitConfig, nowMs: number): Decision {
    const d = this.inner.take(bucketKey, cfg, nowMs - this.jumpedMs);
    return { ...d, resetAtMs: d.resetAtMs + this.jumpedMs };
  }
}
