/**
 * Per-sample facts as named metrics: the one bridge between the engines. k6 VUs cannot share
 * memory, so each response is reduced on the spot to counter and trend updates (k6 Counter /
 * Trend; a Map in Node) and the judgement reads only the aggregates back. Node adds a few exact
 * values from its raw samples on top (see `PhaseAgg` fields marked "exact").
 */
import { parseIntStrict, retryAfterSeconds } from './headers.ts';
import { classifyResetValue, RESET_UNITS, type ResetUnit } from './reset-unit.ts';
import type { Sample } from './sample.ts';
import { PHASE_NAMES, type PhaseName, type Schedule } from './schedule.ts';

export type MetricKind = 'counter' | 'trend';

const COUNTERS = [
  'sent',
  'ok',
  'rej',
  'other',
  'ok_t2',
  'ra_missing',
  'rem_nz429',
  'limit_bad',
  'rem_rise',
  'retry_ok',
  'retry_fail',
  ...RESET_UNITS.map((u) => `reset_${u.replace('-', '_')}`),
] as const;

const TRENDS = [
  'sent_t',
  'recv_t',
  'first_recv',
  'first_rem',
  'rej_idx',
  'rej_sent',
  'rej_recv',
  'ok_t',
  'rem_ok',
  'limit',
  'reset_ahead',
  'ra',
  // Whole-phase facts (see wholePhaseFacts): recorded once per phase by whoever saw every
  // sample of it, in order — the Node driver for every phase, k6's single-VU steady phases.
  'x_okb',
  'x_rise',
  'fit_n',
  'fit_slope',
  'fit_se',
  'fit_span',
] as const;

export function metricName(phase: PhaseName, fact: string): string {
  return `lim_${phase}_${fact}`;
}

/** Every metric an engine must create up front (k6 only allows it in the init context). */
export function metricSpecs(): Array<{ name: string; kind: MetricKind }> {
  const out: Array<{ name: string; kind: MetricKind }> = [];
  for (const p of PHASE_NAMES) {
    for (const c of COUNTERS) out.push({ name: metricName(p, c), kind: 'counter' });
    for (const t of TRENDS) out.push({ name: metricName(p, t), kind: 'trend' });
  }
  return out;
}

export interface FactContext {
  ratePerMin: number;
  /** Seconds within which a reset may lie ahead of Date (see reset-unit.ts). */
  resetHorizonS: number;
}

/** Both engines' context: a reset may lie up to twice a whole refill (or a 60 s window) ahead. */
export function factContext(schedule: Schedule): FactContext {
  const { ratePerMin, burst } = schedule.limits;
  return { ratePerMin, resetHorizonS: Math.max(burst / schedule.r, 60) * 2 + 5 };
}

export interface MetricSink {
  add(name: string, value: number): void;
}

/** Reduces one sample to metric updates. `sink.add` is called for counters and trends alike. */
export function recordSample(s: Sample, ctx: FactContext, sink: MetricSink): void {
  const m = (fact: string, v: number) => sink.add(metricName(s.phase, fact), v);
  const h = s.headers;
  m('sent', 1);
  m('sent_t', s.sentS);
  m('recv_t', s.recvS);
  if (s.retry) {
    m(s.status >= 200 && s.status < 400 ? 'retry_ok' : 'retry_fail', 1);
  }
  if (s.index === 0 && !s.retry) {
    m('first_recv', s.recvS);
    const rem = parseIntStrict(h.remaining);
    if (rem !== undefined) m('first_rem', rem);
  }
  const limit = parseIntStrict(h.limit);
  if (limit !== undefined) m('limit', limit);
  if (limit !== ctx.ratePerMin) m('limit_bad', 1);
  const reset = classifyResetValue(h.reset, h.date, ctx.resetHorizonS);
  m(`reset_${reset.unit.replace('-', '_')}`, 1);
  if (reset.aheadS !== undefined) m('reset_ahead', reset.aheadS);
  const mid = (s.sentS + s.recvS) / 2;
  const remaining = parseIntStrict(h.remaining);
  if (s.status === 429) {
    m('rej', 1);
    m('rej_idx', s.index);
    m('rej_sent', s.sentS);
    m('rej_recv', s.recvS);
    const ra = retryAfterSeconds(h);
    if (ra === undefined) m('ra_missing', 1);
    else m('ra', ra);
    if (remaining !== 0) m('rem_nz429', 1);
  } else if (s.status >= 200 && s.status < 400) {
    m('ok', 1);
    m('ok_t', mid);
    m('ok_t2', mid * mid);
    if (remaining !== undefined) m('rem_ok', remaining);
  } else {
    m('other', 1);
  }
}

/** An aggregate as both engines can report it: k6 Trend stats or a Counter's count. */
export interface MetricValue {
  count?: number;
  min?: number;
  max?: number;
  avg?: number;
  /** k6 trends only, when `summaryTrendStats` asks for them. */
  p50?: number;
  p99?: number;
}

export type MetricReader = (name: string) => MetricValue | undefined;

export interface Moments {
  n: number;
  sum: number;
  sumSq: number;
  min: number;
  max: number;
}

export interface PhaseAgg {
  phase: PhaseName;
  sent: number;
  ok: number;
  rej: number;
  other: number;
  firstSentS?: number | undefined;
  lastSentS?: number | undefined;
  /** Response time of the phase's first request (index 0). */
  firstRecvS?: number | undefined;
  /** Latest response time in the phase. */
  lastRecvS?: number | undefined;
  /** `Remaining` on the phase's first answer. */
  firstRemaining?: number | undefined;
  /** Smallest send index that got a 429, and the earliest send/receive times among 429s. */
  firstRejIdx?: number | undefined;
  firstRejSentS?: number | undefined;
  firstRejRecvS?: number | undefined;
  /**
   * Accepted before the first 429 in send order: exact from a whole-phase record, else (k6's
   * multi-VU bursts) bounded by the send index of the first 429.
   */
  okBeforeFirstRej: number;
  /** Moments of the accepted requests' mid times (send+receive)/2. */
  okTimes: Moments;
  /**
   * Exact (Node): per 429 of the phase, the accepted requests that surely arrived before it
   * (answered before it was sent… counted from the other side) and its send/receive times.
   */
  rejBrackets?:
    | Array<{ lowCount: number; highCount: number; sentS: number; recvS: number }>
    | undefined;
  /** Exact (Node): earliest answer of the phase (bounds the first arrival). */
  minRecvS?: number | undefined;
  /**
   * Exact (from every sample of the phase in order): regression of accept rank on accept mid
   * time (slope = r̂ per server second), as `wholePhaseFacts` recorded it.
   */
  okFit?: { n: number; slope: number; slopeSe: number; spanS: number } | undefined;
  remOkMin?: number | undefined;
  remOkMax?: number | undefined;
  retryAfterMissing: number;
  retryAfterMax?: number | undefined;
  remainingNonZeroOn429: number;
  remainingRises: number;
  limitBad: number;
  limitMin?: number | undefined;
  limitMax?: number | undefined;
  resetUnits: Partial<Record<ResetUnit, number>>;
  resetAheadMin?: number | undefined;
  resetAheadMax?: number | undefined;
  retryOk: number;
  retryFail: number;
}

export type Aggregates = Partial<Record<PhaseName, PhaseAgg>>;

function fin(v: number | undefined): number | undefined {
  return v !== undefined && Number.isFinite(v) ? v : undefined;
}

/** Reads the per-phase aggregates back from either engine's metric store. */
export function readAggregates(read: MetricReader): Aggregates {
  const out: Aggregates = {};
  for (const p of PHASE_NAMES) {
    const c = (f: string) => read(metricName(p, f))?.count ?? 0;
    const t = (f: string) => read(metricName(p, f));
    const sent = c('sent');
    if (sent === 0) continue;
    const okT = t('ok_t');
    const okN = okT?.count ?? c('ok');
    const resetUnits: Partial<Record<ResetUnit, number>> = {};
    for (const u of RESET_UNITS) {
      const n = c(`reset_${u.replace('-', '_')}`);
      if (n > 0) resetUnits[u] = n;
    }
    const firstRejIdx = fin(t('rej_idx')?.min);
    const ok = c('ok');
    // A whole-phase fact is one value; read it only where exactly one was recorded (a phase
    // split over several generators has none, or several that cannot be combined).
    const once = (f: string) => {
      const v = t(f);
      return v?.count === 1 ? fin(v.avg) : undefined;
    };
    const [n, slope, slopeSe, spanS] = ['fit_n', 'fit_slope', 'fit_se', 'fit_span'].map(once);
    out[p] = {
      phase: p,
      sent,
      ok,
      rej: c('rej'),
      other: c('other'),
      firstSentS: fin(t('sent_t')?.min),
      lastSentS: fin(t('sent_t')?.max),
      firstRecvS: fin(t('first_recv')?.min),
      lastRecvS: fin(t('recv_t')?.max),
      firstRemaining: fin(t('first_rem')?.min),
      firstRejIdx,
      firstRejSentS: fin(t('rej_sent')?.min),
      firstRejRecvS: fin(t('rej_recv')?.min),
      okBeforeFirstRej:
        once('x_okb') ?? (firstRejIdx === undefined ? ok : Math.min(ok, firstRejIdx)),
      okTimes: {
        n: okN,
        sum: (okT?.avg ?? 0) * okN,
        sumSq: c('ok_t2'),
        min: fin(okT?.min) ?? Number.NaN,
        max: fin(okT?.max) ?? Number.NaN,
      },
      remOkMin: fin(t('rem_ok')?.min),
      remOkMax: fin(t('rem_ok')?.max),
      retryAfterMissing: c('ra_missing'),
      retryAfterMax: fin(t('ra')?.max),
      remainingNonZeroOn429: c('rem_nz429'),
      remainingRises: once('x_rise') ?? c('rem_rise'),
      limitBad: c('limit_bad'),
      limitMin: fin(t('limit')?.min),
      limitMax: fin(t('limit')?.max),
      resetUnits,
      resetAheadMin: fin(t('reset_ahead')?.min),
      resetAheadMax: fin(t('reset_ahead')?.max),
      retryOk: c('retry_ok'),
      retryFail: c('retry_fail'),
      okFit:
        n !== undefined && slope !== undefined && slopeSe !== undefined && spanS !== undefined
          ? { n, slope, slopeSe, spanS }
          : undefined,
    };
  }
  return out;
}

/** An in-memory metric store with k6's aggregate semantics (Node driver and tests). */
export class MemoryMetrics implements MetricSink {
  private readonly values = new Map<string, { n: number; sum: number; min: number; max: number }>();
  add(name: string, value: number): void {
    const v = this.values.get(name);
    if (!v) this.values.set(name, { n: 1, sum: value, min: value, max: value });
    else {
      v.n += 1;
      v.sum += value;
      if (value < v.min) v.min = value;
      if (value > v.max) v.max = value;
    }
  }
  /** k6 semantics: a Counter's `count` is its sum, a Trend's `count` its number of samples. */
  read: MetricReader = (name) => {
    const v = this.values.get(name);
    if (!v) return undefined;
    return {
      count: isTrendName(name) ? v.n : v.sum,
      min: v.min,
      max: v.max,
      avg: v.sum / v.n,
    };
  };
}

const TREND_SET = new Set<string>(TRENDS);
export function isTrendName(name: string): boolean {
  return TREND_SET.has(name.replace(/^lim_[^_]+_/, ''));
}
