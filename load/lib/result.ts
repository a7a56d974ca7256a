/**
 * The one JSON result of a plan-limit run, written by both engines (Node driver and k6's
 * handleSummary) and read by the reports. Bump `schemaVersion` on any incompatible change.
 */
import { expectedCurve } from './bucket-model.ts';
import { classifyLimiter, type LimiterClassification } from './classify-limiter.ts';
import {
  type BurstEstimate,
  estimateBurst,
  estimateRate,
  type RateEstimate,
} from './estimators.ts';
import type { Aggregates, PhaseAgg } from './metrics.ts';
import type { PlanLimits, PlanName } from './plans.ts';
import { type ResetUnit, type ResetUnitReport, summariseResetUnits } from './reset-unit.ts';
import {
  type KeyIndex,
  OTHER_WORKSPACE_PHASES,
  type PhaseName,
  type Schedule,
} from './schedule.ts';
import { round } from './stats.ts';
import { judgeScope, judgeVerdicts, type ScopeReport, type Verdict } from './verdicts.ts';

export const LOAD_RESULT_SCHEMA = 'harness/load-result';
export const LOAD_RESULT_VERSION = 1;

export type Engine = 'node' | 'k6';

export interface PhaseSummary {
  name: PhaseName;
  key: KeyIndex;
  planned: { count: number; startS: number; durationS: number; ratePerS: number };
  sent: number;
  accepted: number;
  rejected: number;
  other: number;
  acceptedBeforeFirst429: number;
  /** Server seconds from the run start to the first 429 (send time). */
  firstRejectS: number | null;
  /** Achieved send rate per server second (sent − 1 over the send span). */
  achievedRatePerS: number | null;
}

export interface LoadResult {
  schema: typeof LOAD_RESULT_SCHEMA;
  schemaVersion: typeof LOAD_RESULT_VERSION;
  engine: Engine;
  plan: PlanName;
  limits: PlanLimits;
  target: { baseUrl: string; timeScale: number; keys: number };
  startedAt: string;
  wallSeconds: number;
  requests: {
    planned: number;
    sent: number;
    dropped: number;
    budget: number | null;
    truncated: string | null;
    /** Send time minus scheduled time, wall ms (both engines; k6 to the millisecond). */
    pacing?: { p50Ms: number; p99Ms: number; maxMs: number } | null;
  };
  phases: PhaseSummary[];
  estimates: { burst: BurstEstimate | null; rate: RateEstimate };
  limiter: LimiterClassification;
  resetUnit: ResetUnitReport;
  scope: ScopeReport;
  verdicts: Verdict[];
  /** True when no verdict failed. */
  passed: boolean;
  /** Cumulative accepted on the first key over server time: observed, and the plan's bucket. */
  series: { observed: Array<[number, number]>; expected: Array<[number, number]> };
}

export interface JudgeInput {
  engine: Engine;
  schedule: Schedule;
  aggregates: Aggregates;
  baseUrl: string;
  keys: number;
  startedAt: string;
  wallSeconds: number;
  dropped: number;
  budget?: number | null;
  truncated?: string | null;
  /** Node passes its exact curve; k6 gets one point per phase boundary. */
  observedSeries?: Array<[number, number]>;
}

function phaseSummary(schedule: Schedule, agg: Aggregates): PhaseSummary[] {
  return schedule.phases.map((p) => {
    const a: PhaseAgg | undefined = agg[p.name];
    const span =
      a?.firstSentS !== undefined && a.lastSentS !== undefined ? a.lastSentS - a.firstSentS : 0;
    return {
      name: p.name,
      key: p.key,
      planned: {
        count: p.count,
        startS: round(p.startS),
        durationS: round(p.durationS),
        ratePerS: round(p.rate),
      },
      sent: a?.sent ?? 0,
      accepted: a?.ok ?? 0,
      rejected: a?.rej ?? 0,
      other: a?.other ?? 0,
      acceptedBeforeFirst429: a?.okBeforeFirstRej ?? 0,
      firstRejectS: a?.firstRejSentS !== undefined ? round(a.firstRejSentS, 4) : null,
      achievedRatePerS: a && a.sent > 1 && span > 0 ? round((a.sent - 1) / span) : null,
    };
  });
}

/** Planned send times of the first key, as the expected curve's arrivals. */
function plannedArrivals(schedule: Schedule): number[] {
  const ts: number[] = [];
  for (const p of schedule.phases) {
    if (p.key !== 0 || p.kind === 'retry') continue;
    for (let i = 0; i < p.count; i++) ts.push(p.startS + (p.kind === 'probe' ? 0 : i / p.rate));
  }
  return ts.sort((a, b) => a - b);
}

/**
 * A coarse observed curve from aggregates alone (k6): cumulative accepted at phase ends, of the
 * first key only (as the Node driver's exact curve): not the second key's S5 nor the other
 * workspace's phases.
 */
export function coarseObservedSeries(agg: Aggregates): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let n = 0;
  const phases = Object.values(agg)
    .filter(
      (p): p is PhaseAgg =>
        p !== undefined && p.phase !== 'S5' && !OTHER_WORKSPACE_PHASES.has(p.phase),
    )
    .sort((a, b) => (a.firstSentS ?? 0) - (b.firstSentS ?? 0));
  for (const p of phases) {
    if (p.firstSentS !== undefined) out.push([round(p.firstSentS, 4), n]);
    n += p.ok;
    if (p.lastSentS !== undefined) out.push([round(p.lastSentS, 4), n]);
  }
  return out;
}

export function judgeRun(input: JudgeInput): LoadResult {
  const { schedule, aggregates: agg } = input;
  const limits = schedule.limits;
  const s2Rate = schedule.phases.find((p) => p.name === 'S2')?.rate ?? 4 * schedule.r;
  const rate = estimateRate(agg.S2, s2Rate);
  const rOk = rate.method !== 'none';
  const burst = estimateBurst(agg.S1, {
    lowPerS: rOk ? rate.ciLowPerS : schedule.r,
    highPerS: rOk ? rate.ciHighPerS : schedule.r,
  });
  const limiter = classifyLimiter(agg, schedule, rate.perS, burst?.value ?? null);
  const units: Partial<Record<ResetUnit, number>> = {};
  let aMin = Number.POSITIVE_INFINITY;
  let aMax = Number.NEGATIVE_INFINITY;
  for (const p of Object.values(agg)) {
    // The other workspace's answers are that verdict's alone (judgeOtherWorkspace).
    if (!p || OTHER_WORKSPACE_PHASES.has(p.phase)) continue;
    for (const [u, n] of Object.entries(p.resetUnits)) {
      units[u as ResetUnit] = (units[u as ResetUnit] ?? 0) + (n ?? 0);
    }
    if (p.resetAheadMin !== undefined) aMin = Math.min(aMin, p.resetAheadMin);
    if (p.resetAheadMax !== undefined) aMax = Math.max(aMax, p.resetAheadMax);
  }
  const resetUnit = summariseResetUnits(units, { min: aMin, max: aMax });
  const scope = judgeScope(agg, limits.burst);
  const truncated = input.truncated ?? undefined;
  const verdicts = judgeVerdicts({
    limits,
    schedule,
    agg,
    burst,
    rate,
    limiter,
    resetUnit,
    scope,
    dropped: input.dropped,
    truncated,
  });
  // Every request sent, the other workspace's too: the budget counts them all.
  const sent = Object.values(agg).reduce((n, p) => n + (p?.sent ?? 0), 0);
  const expected = expectedCurve(
    { burst: limits.burst, ratePerS: schedule.r },
    plannedArrivals(schedule),
  );
  return {
    schema: LOAD_RESULT_SCHEMA,
    schemaVersion: LOAD_RESULT_VERSION,
    engine: input.engine,
    plan: limits.plan,
    limits,
    target: { baseUrl: input.baseUrl, timeScale: schedule.timeScale, keys: input.keys },
    startedAt: input.startedAt,
    wallSeconds: round(input.wallSeconds, 2),
    requests: {
      planned: schedule.totalRequests,
      sent,
      dropped: input.dropped,
      budget: input.budget ?? null,
      truncated: truncated ?? null,
    },
    phases: phaseSummary(schedule, agg),
    estimates: { burst: burst ?? null, rate },
    limiter,
    resetUnit,
    scope,
    verdicts,
    passed: verdicts.every((v) => v.status !== 'fail'),
    series: {
      observed: input.observedSeries ?? coarseObservedSeries(agg),
      expected: thinSeries(expected, 400),
    },
  };
}

/** At most `max` points of a series, evenly picked (first and last kept), times to 0.1 ms. */
export function thinSeries(points: Array<[number, number]>, max: number): Array<[number, number]> {
  if (points.length <= max) return points.map(([t, n]) => [round(t, 4), n]);
  const out: Array<[number, number]> = [];
  const step = (points.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) {
    const p = points[Math.round(i * step)]!;
    out.push([round(p[0], 4), p[1]]);
  }
  return out;
}
