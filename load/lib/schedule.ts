/**
 * The phase schedule of one plan-limit run. Every number is first planned in server time (the
 * deployment's own seconds) and then divided by `timeScale` for wall time, so a run against a
 * deployment whose clock runs N× faster keeps exactly the same shape in N× less time.
 *
 * With B = burst and r = rate/60 per second:
 * - S0   one probe: freshness of the key (`Remaining` = B − 1), the Limit header.
 * - S0w  one probe of another workspace's key, beside S0: how much room its own bucket has.
 * - S1   burst well past B at a high arrival rate: accepted before the first 429 ≈ B + r·t.
 * - S5   a second key of the same workspace, right after S1: per-key or shared bucket?
 * - S5w  a few requests on another workspace's key, right after S1: its own bucket, never
 *        emptied by key A's drain (documented, whichever way S5 reads the workspace).
 * - S2   overdrive at 4r on the drained bucket: accept timestamps give r̂ by regression.
 * - S2b  0.9r after a short refill pause: a bucket never answers 429 here.
 * - D1   a short drain so the idle periods start from an empty bucket.
 * - S3   idle 20 s, then a burst: a bucket recovers ≈ r·20.
 * - S4   idle 40 s, then a burst past B: a bucket recovers ≈ r·40 (twice S3); a sliding log
 *        its whole quota, a sliding counter a part of it.
 * - S6   one request until 429, wait `Retry-After`, retry once: honouring it must work.
 */
import type { PlanLimits } from './plans.ts';

export type PhaseName =
  | 'S0'
  | 'S0w'
  | 'S1'
  | 'S5'
  | 'S5w'
  | 'S2'
  | 'S2b'
  | 'D1'
  | 'S3'
  | 'S4'
  | 'S6';

export const PHASE_NAMES: readonly PhaseName[] = [
  'S0',
  'S0w',
  'S1',
  'S5',
  'S5w',
  'S2',
  'S2b',
  'D1',
  'S3',
  'S4',
  'S6',
];

export type PhaseKind = 'probe' | 'burst' | 'steady' | 'retry';

/**
 * Which key a phase sends with: 0 the plan's first key, 1 a second key of the same workspace,
 * 2 a key of another workspace (HARNESS_OTHER_WORKSPACE_KEY).
 */
export type KeyIndex = 0 | 1 | 2;

/**
 * The phases on another workspace's key: judged only by the other-workspace verdict, never
 * counted in the plan's own (its answers carry that workspace's plan and bucket).
 */
export const OTHER_WORKSPACE_PHASES: ReadonlySet<PhaseName> = new Set(['S0w', 'S5w']);

/** S5w's requests: a handful, so that the other workspace's own budget is never drained. */
export const OTHER_WORKSPACE_REQUESTS = 5;

export interface Phase {
  name: PhaseName;
  kind: PhaseKind;
  key: KeyIndex;
  /** Planned requests (S6 sends up to `count` until a 429, then one retry). */
  count: number;
  /** Server time of the first send, seconds from the run start. */
  startS: number;
  durationS: number;
  /** Arrival rate in requests per server second. */
  rate: number;
  /** Wall-clock equivalents (server numbers divided / multiplied by timeScale). */
  startMs: number;
  durationMs: number;
  ratePerRealS: number;
  /** Idle time (server s) before this phase, for the recovery phases S3/S4. */
  idleBeforeS: number;
}

export interface ScheduleOptions {
  /** Server clock speed relative to wall time; divides durations, multiplies rates. Default 1. */
  timeScale?: number;
  /** Keys available; S5 needs 2. Default 1. */
  keys?: number;
  /** A key of another workspace is available: S0w and S5w run. Default false. */
  otherWorkspace?: boolean;
  /** Burst arrival rate, requests per server second. Default min(2000, max(200, 2·B·r)). */
  burstRate?: number;
  /**
   * Highest wall-clock send rate, requests per real second. Default 4000: beyond what a server
   * answers, requests queue inside it and the arrival times (hence B̂) blur. Caps burstRate.
   */
  maxRealRate?: number;
  /** Overdrive duration (S2), server s. Default 15. */
  overdriveS?: number;
  /** Under-rate duration (S2b), server s. Default 15. */
  underRateS?: number;
  /** Idle periods before S3 and S4, server s. Default 20 and 40. */
  idleS?: readonly [number, number];
}

export interface Schedule {
  limits: PlanLimits;
  timeScale: number;
  /** Rate in tokens per server second. */
  r: number;
  phases: Phase[];
  /** Planned requests (S6 counted at its maximum). */
  totalRequests: number;
  /** Planned server seconds until the last phase starts, plus the worst Retry-After wait. */
  totalS: number;
  totalMs: number;
}

/** S6 sends at most this many requests looking for a 429, then one retry. */
export const RETRY_PROBES = 4;

export function buildSchedule(limits: PlanLimits, opts: ScheduleOptions = {}): Schedule {
  const timeScale = opts.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error(`timeScale must be > 0, got ${timeScale}`);
  const B = limits.burst;
  const r = limits.ratePerMin / 60;
  const burstRate = Math.min(
    opts.burstRate ?? Math.min(2000, Math.max(200, 2 * B * r)),
    (opts.maxRealRate ?? 4000) / timeScale,
  );
  const overdriveS = opts.overdriveS ?? 15;
  const underRateS = opts.underRateS ?? 15;
  const [idle3, idle4] = opts.idleS ?? [20, 40];
  const keys = opts.keys ?? 1;

  const phases: Phase[] = [];
  let t = 0;
  const add = (
    name: PhaseName,
    kind: PhaseKind,
    key: KeyIndex,
    count: number,
    rate: number,
    startS: number,
    idleBeforeS = 0,
  ): Phase => {
    const durationS = kind === 'probe' || kind === 'retry' ? 0 : count / rate;
    const p: Phase = {
      name,
      kind,
      key,
      count,
      startS,
      durationS,
      rate,
      startMs: (startS / timeScale) * 1000,
      durationMs: (durationS / timeScale) * 1000,
      ratePerRealS: rate * timeScale,
      idleBeforeS,
    };
    phases.push(p);
    return p;
  };

  add('S0', 'probe', 0, 1, 1, 0);
  if (opts.otherWorkspace) add('S0w', 'probe', 2, 1, 1, 0);
  // The probe took one token; give the bucket time to be full again before S1. S0w's token is
  // key A's too where every workspace shares one bucket: refill it as well, so that such a
  // deployment fails the other-workspace verdict and not, through the harness's own probe, fresh-key.
  t = Math.max(1, (opts.otherWorkspace ? 3 : 2) / r);
  const s1 = add('S1', 'burst', 0, Math.ceil(1.2 * B) + 20, burstRate, t);
  // Half a token of pause: S2 must not overlap S1's last answers on the key.
  t = s1.startS + s1.durationS + 0.5 / r;
  // Where a workspace's keys share one bucket (U25), S5 finds it drained: the token or so it may
  // still take is one S2 would have had first, which delays S2's first accept, never the slope
  // r̂ is read from — the documented verdicts hold either way.
  if (keys >= 2) add('S5', 'burst', 1, 10, burstRate, t);
  if (opts.otherWorkspace) add('S5w', 'burst', 2, OTHER_WORKSPACE_REQUESTS, burstRate, t);
  const s2 = add('S2', 'steady', 0, Math.max(8, Math.round(4 * r * overdriveS)), 4 * r, t);
  t = s2.startS + s2.durationS + 2 / r;
  const s2b = add('S2b', 'steady', 0, Math.max(3, Math.floor(0.9 * r * underRateS)), 0.9 * r, t);
  t = s2b.startS + s2b.durationS;
  const d1 = add('D1', 'burst', 0, Math.ceil(0.2 * r * underRateS) + 25, burstRate, t);
  t = d1.startS + d1.durationS + idle3;
  const s3 = add(
    'S3',
    'burst',
    0,
    Math.ceil(Math.min(1.5 * r * idle3, 1.2 * B)) + 20,
    burstRate,
    t,
    idle3,
  );
  t = s3.startS + s3.durationS + idle4;
  const s4 = add(
    'S4',
    'burst',
    0,
    // Past B: a window limiter's whole quota (sliding log) must be told from a part (counter).
    Math.ceil(1.2 * B) + 20,
    burstRate,
    t,
    idle4,
  );
  t = s4.startS + s4.durationS;
  add('S6', 'retry', 0, RETRY_PROBES + 1, burstRate, t);
  // Worst wait in S6: a bucket answers Retry-After ≤ ceil(1/r); allow a window limiter's 60 s.
  const totalS = t + Math.max(Math.ceil(1 / r), 2) + 1;
  const totalRequests = phases.reduce((n, p) => n + p.count, 0);
  return {
    limits,
    timeScale,
    r,
    phases,
    totalRequests,
    totalS,
    totalMs: (totalS / timeScale) * 1000,
  };
}
