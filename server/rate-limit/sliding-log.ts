import type { Decision, LimitConfig, Limiter } from './types.ts';

/**
 * Reading `U24=sliding-window`: at most `burst` accepted requests in any trailing window of burst/rate
 * minutes (a sliding log). Capacity and long-run rate match the plan; recovery does not.
 */
export class SlidingLogLimiter implements Limiter {
  private readonly logs = new Map<string, number[]>();

  take(key: string, cfg: LimitConfig, nowMs: number): Decision {
    const windowMs = (cfg.burst / cfg.ratePerMin) * 60_000;
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    while (log.length > 0 && log[0]! <= nowMs - windowMs) log.shift();
    const allowed = log.length < cfg.burst;
    if (allowed) log.push(nowMs);
    const oldest = log[0] ?? nowMs;
    const last = log[log.length - 1] ?? nowMs;
    return {
      allowed,
      remaining: cfg.burst - log.length,
      resetAtMs: last + windowMs,
      retryAfterMs: allowed ? 0 : oldest + windowMs - nowMs,
    };
  }
}
