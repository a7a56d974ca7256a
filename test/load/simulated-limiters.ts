/**
 * Synthetic deployments for the load estimators' properties: the four limiter families and the
 * header variants, driven through a plan schedule with random network latency. Times are
 * server seconds; the server's epoch at t = 0 is `epoch0`.
 */
import type { Phase, RateHeaders, Sample, Schedule } from '../../load/lib/index.ts';

export interface Decision {
  ok: boolean;
  remaining: number;
  /** Server time (s since run start) when the limiter is fully reset. */
  resetAt: number;
  /** Seconds until a request would be accepted (for Retry-After). */
  retryAfter: number;
}

export interface Limiter {
  take(t: number): Decision;
}

export function tokenBucket(burst: number, ratePerS: number): Limiter {
  let tokens = burst;
  let last = 0;
  return {
    take(t) {
      tokens = Math.min(burst, tokens + (t - last) * ratePerS);
      last = Math.max(last, t);
      const ok = tokens >= 1;
      if (ok) tokens -= 1;
      return {
        ok,
        remaining: Math.floor(tokens),
        resetAt: t + (burst - tokens) / ratePerS,
        retryAfter: ok ? 0 : (1 - tokens) / ratePerS,
      };
    },
  };
}

/** `offset` shifts the window boundaries: boundaries at k·W − offset. */
export function fixedWindow(limit: number, windowS: number, offset: number): Limiter {
  let idx = Number.NaN;
  let count = 0;
  return {
    take(t) {
      const w = Math.floor((t + offset) / windowS);
      if (w !== idx) {
        idx = w;
        count = 0;
      }
      const end = (w + 1) * windowS - offset;
      const ok = count < limit;
      if (ok) count += 1;
      return { ok, remaining: limit - count, resetAt: end, retryAfter: ok ? 0 : end - t };
    },
  };
}

export function slidingLog(limit: number, windowS: number): Limiter {
  const log: number[] = [];
  return {
    take(t) {
      while (log.length > 0 && log[0]! <= t - windowS) log.shift();
      const ok = log.length < limit;
      if (ok) log.push(t);
      const oldest = log[0] ?? t;
      return {
        ok,
        remaining: limit - log.length,
        resetAt: (log[log.length - 1] ?? t) + windowS,
        retryAfter: ok ? 0 : oldest + windowS - t,
      };
    },
  };
}

export function slidingCounter(limit: number, windowS: number, offset: number): Limiter {
  let idx = Number.NaN;
  let prev = 0;
  let curr = 0;
  return {
    take(t) {
      const w = Math.floor((t + offset) / windowS);
      if (w !== idx) {
        prev = w === idx + 1 ? curr : 0;
        curr = 0;
        idx = w;
      }
      const f = (t + offset) / windowS - w;
      const est = prev * (1 - f) + curr;
      const ok = est + 1 <= limit;
      if (ok) curr += 1;
      const after = prev * (1 - f) + curr;
      const end = (w + 1) * windowS - offset;
      return {
        ok,
        remaining: Math.max(0, Math.floor(limit - after)),
        resetAt: end + windowS,
        retryAfter: ok ? 0 : prev > 0 ? ((after + 1 - limit) / prev) * windowS : end - t,
      };
    },
  };
}

export type ResetStyle = 'epoch-s' | 'epoch-ms' | 'delta-s' | 'http-date';

export interface SimOptions {
  /**
   * Limiter per key index (0, 1: keys of the plan's workspace; 2: another workspace's); the same
   * object twice makes a shared bucket. A phase whose key has no limiter is not sent.
   */
  limiters: [Limiter, Limiter, Limiter?];
  ratePerMin: number;
  /** One-way latency jitter, seconds (uniform on [0.0002, 0.0002 + jitter]). */
  jitterS: number;
  /** Random source in [0, 1) (fast-check gives a seeded one). */
  random: () => number;
  epoch0?: number;
  resetStyle?: ResetStyle;
  /** Adds this to every Remaining (a Remaining-off-by-one deployment). */
  remainingOffset?: number;
  retryAfter?: boolean;
}

function headersFor(d: Decision, t: number, o: SimOptions): RateHeaders {
  const epoch0 = o.epoch0 ?? 1_750_000_000;
  const now = epoch0 + t;
  const resetEpoch = epoch0 + d.resetAt;
  const style = o.resetStyle ?? 'epoch-s';
  const reset =
    style === 'epoch-s'
      ? String(Math.ceil(resetEpoch))
      : style === 'epoch-ms'
        ? String(Math.ceil(resetEpoch * 1000))
        : style === 'delta-s'
          ? String(Math.max(0, Math.ceil(d.resetAt - t)))
          : new Date(Math.ceil(resetEpoch) * 1000).toUTCString();
  const h: RateHeaders = {
    limit: String(o.ratePerMin),
    remaining: String(d.remaining + (o.remainingOffset ?? 0)),
    reset,
    date: new Date(Math.floor(now) * 1000).toUTCString(),
  };
  if (!d.ok && o.retryAfter !== false) h.retryAfter = String(Math.max(1, Math.ceil(d.retryAfter)));
  return h;
}

interface Pending {
  phase: Phase;
  index: number;
  sentS: number;
  arriveS: number;
  retry?: boolean;
}

/** Runs the schedule against the simulated deployment; returns samples in server seconds. */
export function simulateRun(schedule: Schedule, o: SimOptions): Sample[] {
  const owd = () => 0.0002 + o.random() * o.jitterS;
  const pending: Pending[] = [];
  let s6: Phase | undefined;
  for (const p of schedule.phases) {
    if (o.limiters[p.key] === undefined) continue;
    if (p.kind === 'retry') {
      s6 = p;
      continue;
    }
    for (let i = 0; i < p.count; i++) {
      const sentS = p.startS + (p.kind === 'probe' ? 0 : i / p.rate);
      pending.push({ phase: p, index: i, sentS, arriveS: sentS + owd() });
    }
  }
  pending.sort((a, b) => a.arriveS - b.arriveS);
  const samples: Sample[] = [];
  const serve = (q: Pending): Sample => {
    const d = o.limiters[q.phase.key]!.take(q.arriveS);
    return {
      phase: q.phase.name,
      key: q.phase.key,
      index: q.index,
      sentS: q.sentS,
      recvS: q.arriveS + owd(),
      status: d.ok ? 200 : 429,
      headers: headersFor(d, q.arriveS, o),
      ...(q.retry ? { retry: true } : {}),
    };
  };
  for (const q of pending) samples.push(serve(q));
  if (s6) {
    let t = s6.startS;
    for (let i = 0; i < s6.count - 1; i++) {
      const s = serve({ phase: s6, index: i, sentS: t, arriveS: t + owd() });
      samples.push(s);
      t = s.recvS;
      if (s.status === 429) {
        const ra = Number(s.headers.retryAfter);
        if (Number.isFinite(ra) && s.headers.retryAfter !== undefined) {
          const at = t + ra;
          samples.push(
            serve({ phase: s6, index: i + 1, sentS: at, arriveS: at + owd(), retry: true }),
          );
        }
        break;
      }
    }
  }
  return samples;
}
