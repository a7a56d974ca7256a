/** A per-key request limiter of the reference deployment (the correct one and the faulty ones). */
export interface LimitConfig {
  /** Requests per minute (the plan's rate, shown in X-RateLimit-Limit). */
  ratePerMin: number;
  /** Bucket capacity: how many requests a fresh key may send at once. */
  burst: number;
}

export interface Decision {
  allowed: boolean;
  /** Whole requests left after this one. */
  remaining: number;
  /** Service time (ms) at which the key is back to full capacity. */
  resetAtMs: number;
  /** Service ms until one request would be accepted (0 when allowed). */
  retryAfterMs: number;
}

export interface Limiter {
  take(bucketKey: string, cfg: LimitConfig, nowMs: number): Decision;
}
