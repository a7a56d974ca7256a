import type { Decision, LimitConfig, Limiter } from './types.ts';

interface Bucket {
  tokens: number;
  lastMs: number;
}

/**
 * The assumed limiter (docs/assumptions.md U24): capacity = burst, refilled continuously at rate/60 tokens per
 * second; a request costs one token; `remaining` = whole tokens left.
 */
export class TokenBucketLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * `chargeRefused` (the fault starves-past-burst): a refused request takes what the bucket holds
   * too, so a client sending faster than the refill never sees a whole token again.
   */
  constructor(private readonly o: { chargeRefused?: boolean } = {}) {}

  take(key: string, cfg: LimitConfig, nowMs: number): Decision {
    const perMs = cfg.ratePerMin / 60_000;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: cfg.burst, lastMs: nowMs };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(cfg.burst, b.tokens + Math.max(0, nowMs - b.lastMs) * perMs);
    b.lastMs = Math.max(b.lastMs, nowMs);
    // A tiny epsilon absorbs float error so that exactly one refill interval yields one token.
    const allowed = b.tokens >= 1 - 1e-9;
    if (allowed || this.o.chargeRefused) b.tokens = Math.max(0, b.tokens - 1);
    const resetAtMs = nowMs + (cfg.burst - b.tokens) / perMs;
    const retryAfterMs = allowed ? 0 : (1 - b.tokens) / perMs;
    return { allowed, remaining: Math.floor(b.tokens + 1e-9), resetAtMs, retryAfterMs };
  }
}
