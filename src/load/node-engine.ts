/**
 * The Node engine: runs one plan's schedule (load/lib) over an undici Pool, keeps every sample
 * and judges them with load/lib — the same judgement k6's handleSummary runs.
 */
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import {
  aggregateSamples,
  buildSchedule,
  judgeRun,
  type LoadResult,
  type Phase,
  type PlanName,
  type PlanOverrides,
  parseIntStrict,
  RETRY_PROBES,
  rateHeaders,
  resolvePlan,
  retryAfterSeconds,
  type Sample,
  type Schedule,
  type ScheduleOptions,
} from '../../load/lib/index.ts';
import { performance, waitUntil } from './pacer.ts';

/** Shared between plans running in parallel: the request budget is global. */
/** Longest Retry-After (server seconds) the S6 retry probe waits out. */
const MAX_RETRY_WAIT_S = 120;

export class RequestBudget {
  used = 0;
  reserved = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  /** Reserves a whole plan's requests up front, so a plan never starts that cannot finish. */
  reserve(n: number, what: string): void {
    if (this.reserved + n > this.limit)
      throw new Error(
        `${what} needs ${n} requests but only ${this.limit - this.reserved} of the budget (${this.limit}) are left; raise --budget`,
      );
    this.reserved += n;
  }
  /** Takes one request; false once the budget is spent (the hard stop). */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }
}

export interface Progress {
  plan: PlanName;
  phase: string;
  sent: number;
  ok: number;
  rejected: number;
  planned: number;
}

export interface NodePlanOptions {
  plan: PlanName;
  baseUrl: URL;
  keys: readonly string[];
  timeScale: number;
  budget: RequestBudget;
  /** Aborted at the time limit: nothing is sent after it. */
  signal: AbortSignal;
  enterprise?: PlanOverrides;
  schedule?: ScheduleOptions;
  /** Pool connections, opened before S1 so the burst is not reordered by TCP setup. Default 64. */
  connections?: number;
  onProgress?: (p: Progress) => void;
}

export interface NodePlanRun {
  result: LoadResult;
  samples: Sample[];
  /** Send time minus scheduled time, ms, for every paced request. */
  lagsMs: number[];
}

export async function runPlanNode(o: NodePlanOptions): Promise<NodePlanRun> {
  const key0 = o.keys[0];
  if (!key0) throw new Error(`plan ${o.plan}: no API key`);
  setMaxListeners(0, o.signal);
  const connections = o.connections ?? 64;
  const pool = new Pool(o.baseUrl.origin, {
    connections,
    pipelining: 1,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const path = `${o.baseUrl.pathname.replace(/\/$/, '')}/v1/tickets?limit=1`;
  const startedAt = new Date().toISOString();
  const wall0 = performance.now();
  let t0 = wall0;
  const samples: Sample[] = [];
  const lagsMs: number[] = [];
  let dropped = 0;
  let truncated: string | undefined;
  const progress: Progress = { plan: o.plan, phase: 'S0', sent: 0, ok: 0, rejected: 0, planned: 0 };
  const serverS = (wallMs: number) => ((wallMs - t0) / 1000) * o.timeScale;

  const send = async (phase: Phase, index: number, extra: { retry?: boolean } = {}) => {
    if (o.signal.aborted) {
      truncated ??= 'time limit reached';
      dropped += 1;
      return undefined;
    }
    if (!o.budget.take()) {
      truncated ??= 'request budget spent';
      dropped += 1;
      return undefined;
    }
    const key = o.keys[phase.key] ?? key0;
    const sent = performance.now();
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let recv = sent;
    try {
      const res = await pool.request({
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        signal: o.signal,
      });
      recv = performance.now();
      status = res.statusCode;
      headers = res.headers;
      await res.body.dump();
    } catch {
      recv = performance.now();
    }
    progress.sent += 1;
    if (status === 429) progress.rejected += 1;
    else if (status >= 200 && status < 400) progress.ok += 1;
    const s: Sample = {
      phase: phase.name,
      key: phase.key,
      index,
      sentS: serverS(sent),
      recvS: serverS(recv),
      status,
      headers: rateHeaders(headers),
      ...(extra.retry ? { retry: true } : {}),
    };
    samples.push(s);
    return s;
  };

  try {
    // S0 first, alone: it sizes Enterprise and tells whether the key is fresh.
    const probePhase: Phase = {
      name: 'S0',
      kind: 'probe',
      key: 0,
      count: 1,
      startS: 0,
      durationS: 0,
      rate: 1,
      startMs: 0,
      durationMs: 0,
      ratePerRealS: o.timeScale,
      idleBeforeS: 0,
    };
    o.budget.reserve(1, `the probe of plan ${o.plan}`);
    const probe = await send(probePhase, 0);
    const limits = resolvePlan(o.plan, o.plan === 'enterprise' ? o.enterprise : {}, {
      limitHeader: parseIntStrict(probe?.headers.limit),
      remaining: parseIntStrict(probe?.headers.remaining),
    });
    const schedule: Schedule = buildSchedule(limits, {
      timeScale: o.timeScale,
      keys: o.keys.length,
      ...o.schedule,
    });
    o.budget.reserve(schedule.totalRequests - 1, `plan ${o.plan}`);
    progress.planned = schedule.totalRequests;
    // A half-empty bucket silently ruins every estimate: wait until it is full again.
    const rem = parseIntStrict(probe?.headers.remaining);
    if (rem !== undefined && rem < limits.burst - 1) {
      const waitMs = (((limits.burst - 1 - rem) / schedule.r) * 1000) / o.timeScale;
      await waitUntil(performance.now() + waitMs, o.signal);
      t0 += waitMs;
      for (const s of samples) {
        s.sentS -= (waitMs / 1000) * o.timeScale;
        s.recvS -= (waitMs / 1000) * o.timeScale;
      }
    }

    // Open every connection now, without a key (these never touch the key's bucket): a burst
    // whose first requests wait for TCP handshakes arrives out of order.
    o.budget.reserve(connections, `connection warm-up of plan ${o.plan}`);
    await Promise.all(
      Array.from({ length: connections }, async () => {
        if (!o.budget.take()) return;
        const res = await pool
          .request({ method: 'HEAD', path: '/', signal: o.signal })
          .catch(() => undefined);
        await res?.body.dump().catch(() => undefined);
      }),
    );

    // Phases follow one another; a phase that ends late (slow responses) shifts the next ones so
    // they never overlap on the key, and idle periods are never shorter than planned.
    let shiftMs = 0;
    const runPaced = async (phase: Phase) => {
      const pending: Array<Promise<unknown>> = [];
      let burstSinceYield = 0;
      const start = t0 + shiftMs;
      for (let i = 0; i < phase.count; i++) {
        const due = start + phase.startMs + (i * 1000) / phase.ratePerRealS;
        const now = performance.now();
        if (due > now) {
          await waitUntil(due, o.signal);
          burstSinceYield = 0;
        } else if (++burstSinceYield >= 16) {
          // Behind schedule: still let responses in now and then.
          await new Promise((r) => setImmediate(r));
          burstSinceYield = 0;
        }
        if (i === 0) progress.phase = phase.name;
        lagsMs.push(performance.now() - due);
        pending.push(send(phase, i));
      }
      await Promise.all(pending);
      const plannedEnd = start + phase.startMs + phase.durationMs;
      return performance.now() - plannedEnd;
    };

    const paced = schedule.phases.filter((p) => p.kind !== 'probe' && p.kind !== 'retry');
    for (let i = 0; i < paced.length; i++) {
      const p = paced[i]!;
      // S5 (second key) runs beside S2: it must come right after S1, and has its own bucket.
      const beside = paced[i + 1]?.name === 'S2' && p.name === 'S5' ? paced[++i] : undefined;
      const late = await Promise.all([runPaced(p), beside ? runPaced(beside) : 0]);
      shiftMs += Math.max(0, ...late);
    }

    const s6 = schedule.phases.find((p) => p.name === 'S6');
    if (s6) {
      progress.phase = 'S6';
      for (let i = 0; i < RETRY_PROBES; i++) {
        const s = await send(s6, i);
        if (!s) break;
        if (s.status !== 429) continue;
        const ra = retryAfterSeconds(s.headers);
        // A Retry-After longer than any plan needs to refill one token is not waited out: the
        // run would only hit its time limit. The retry is then skipped (and so its verdict).
        if (ra !== undefined && ra <= MAX_RETRY_WAIT_S) {
          const waitMs = (ra * 1000) / o.timeScale;
          await waitUntil(performance.now() + waitMs, o.signal);
          await send(s6, i + 1, { retry: true });
        }
        break;
      }
    }
    o.onProgress?.(progress);

    const ctx = {
      ratePerMin: limits.ratePerMin,
      resetHorizonS: Math.max(limits.burst / schedule.r, 60) * 2 + 5,
    };
    const aggregates = aggregateSamples(samples, ctx);
    const observed: Array<[number, number]> = [];
    let n = 0;
    for (const s of samples
      .filter((x) => x.key === 0 && x.status >= 200 && x.status < 400)
      .sort((a, b) => a.sentS - b.sentS)) {
      n += 1;
      observed.push([(s.sentS + s.recvS) / 2, n]);
    }
    const thinned = thinSeries(observed, 600);
    const result = judgeRun({
      engine: 'node',
      schedule,
      aggregates,
      baseUrl: o.baseUrl.origin,
      keys: o.keys.length,
      startedAt,
      wallSeconds: (performance.now() - wall0) / 1000,
      dropped,
      budget: o.budget.limit,
      truncated: truncated ?? null,
      observedSeries: thinned,
    });
    result.requests.pacing = pacingStats(lagsMs);
    return { result, samples, lagsMs };
  } finally {
    await pool.close().catch(() => undefined);
  }
}

function thinSeries(points: Array<[number, number]>, max: number): Array<[number, number]> {
  const r = (v: number) => Math.round(v * 1e4) / 1e4;
  if (points.length <= max) return points.map(([t, n]) => [r(t), n]);
  const step = (points.length - 1) / (max - 1);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < max; i++) {
    const p = points[Math.round(i * step)]!;
    out.push([r(p[0]), p[1]]);
  }
  return out;
}

export function pacingStats(lags: readonly number[]): {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
} {
  if (lags.length === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0 };
  const s = [...lags].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return { p50Ms: r(q(0.5)), p99Ms: r(q(0.99)), maxMs: r(s[s.length - 1]!) };
}
