import type { Decision, LimitConfig, Limiter } from './types.ts';

/**
 * Reading `U24=fixed-window`: `burst` requests per fixed window of burst/rate minutes. Same capacity
 * and same long-run rate as the bucket, so only the shape of recovery gives it away.
 */
export class FixedWindowLimiter implements Limiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  take(key: string, cfg: LimitConfig, nowMs: number): Decision {
    const windowMs = (cfg.burst / cfg.ratePerMin) * 60_000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count < cfg.burst;
    if (allowed) w.count++;
    const end = start + windowMs;
    return {
      allowed,
      remaining: cfg.burst - w.count,
      resetAtMs: end,
      retryAfterMs: allowed ? 0 : end - nowMs,
    };
  }
}
