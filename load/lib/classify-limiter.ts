/**
 * Which limiter the deployment runs (gap U24), from the shape of the accepts after S1 drained
 * the key. Window limiters are assumed to use 60 s windows ("requests per minute").
 *
 * - token bucket: accepts resume within one refill interval, S2 accepts about one request in
 *   four (overdrive at 4r), S2b has no 429, recovery after idle d is ≈ r·d (S4 ≈ 2 × S3);
 * - fixed window: nothing until a window boundary, then everything until the window's quota is
 *   used (a run of accepts, capacity regained all at once);
 * - sliding log: nothing for 60 s after S1's accepts, then the whole quota again;
 * - sliding counter: nothing until a boundary, then a steady trickle at quota/60 s that grows
 *   with the window's progress (partial recovery).
 *
 * Evidence strings give the numbers behind the decision; ambiguous shapes name alternatives.
 */
import { recoveredTokens } from './estimators.ts';
import type { Aggregates, PhaseAgg } from './metrics.ts';
import type { Schedule } from './schedule.ts';

export type LimiterKind =
  | 'token-bucket'
  | 'fixed-window'
  | 'sliding-log'
  | 'sliding-counter'
  | 'unknown';

export interface LimiterClassification {
  algorithm: LimiterKind;
  confidence: 'high' | 'low';
  alternatives: LimiterKind[];
  evidence: string[];
  features: Record<string, number | null>;
  /**
   * The run showed a token bucket to every client that kept to the rate — the under-rate phase
   * S2b met no 429, and the recoveries after idling (S3, S4) were the refill of their idle time —
   * whatever S2 showed: what a judgement of S2 itself may rest on (verdicts.ts `rate-held`).
   * Absent when there was nothing to classify.
   */
  keptToRate?: boolean;
}

const WINDOW_S = 60;

/** What every step of one classification reads, and the evidence and features it adds to. */
interface Run {
  agg: Aggregates;
  schedule: Schedule;
  S1: PhaseAgg;
  S2: PhaseAgg;
  /** r̂, or the plan rate when there is no estimate. */
  r: number;
  /** B̂, or what S1 got before its first 429. */
  quota: number;
  evidence: string[];
  features: Record<string, number | null>;
  keptToRate?: boolean;
}

function fmt(v: number | undefined | null, d = 1): string {
  return v === undefined || v === null || !Number.isFinite(v) ? 'n/a' : v.toFixed(d);
}

const phaseRate = (schedule: Schedule, name: string) =>
  schedule.phases.find((p) => p.name === name)?.rate ?? 1;

/** The run's evidence, ending in the conclusion the caller pushed last. */
function classified(
  run: Run,
  algorithm: LimiterKind,
  confidence: 'high' | 'low',
  alternatives: LimiterKind[] = [],
): LimiterClassification {
  return {
    algorithm,
    confidence,
    alternatives,
    evidence: run.evidence,
    features: run.features,
    ...(run.keptToRate === undefined ? {} : { keptToRate: run.keptToRate }),
  };
}

/** Share of requests accepted after the first accept of a paced phase. */
function acceptShareAfterReopen(p: PhaseAgg, rate: number): number | undefined {
  if (p.ok === 0 || p.lastSentS === undefined || !Number.isFinite(p.okTimes.min)) return undefined;
  const sentAfter = Math.max(1, rate * Math.max(0, p.lastSentS - p.okTimes.min) + 1);
  return Math.min(1, p.ok / sentAfter);
}

/** Tokens regained after idling since `prevEnd`, against what a bucket would refill. */
function recovery(run: Run, p: PhaseAgg | undefined, prevEnd: number | undefined) {
  if (!p || prevEnd === undefined || p.firstSentS === undefined) return undefined;
  const idle = p.firstSentS - prevEnd;
  const got = recoveredTokens(p, run.r);
  if (got === undefined) return undefined;
  return { idle, got, expected: Math.min(run.quota, run.r * idle) };
}

const near = (x: ReturnType<typeof recovery>) =>
  x !== undefined && Math.abs(x.got - x.expected) <= Math.max(2.5, 0.12 * x.expected);

/** The four token-bucket signatures, each true when the run shows it. */
function bucketSignatures(run: Run) {
  const { agg, schedule, S2, r, features } = run;
  const { S2b, D1, S3, S4 } = agg;
  // Dead time after the drain: a bucket refills one token within 1/r.
  const s2Rate = phaseRate(schedule, 'S2');
  const start = S2.firstSentS ?? run.S1.lastSentS ?? 0;
  const dead = S2.ok > 0 ? S2.okTimes.min - start : Number.POSITIVE_INFINITY;
  const deadLimit = 1.5 / r + 2 / s2Rate + 0.05 * schedule.timeScale;
  features.deadAfterDrainS = Number.isFinite(dead) ? dead : null;
  const share2 = acceptShareAfterReopen(S2, s2Rate);
  features.s2AcceptShare = share2 ?? null;
  const expectedShare2 = r / s2Rate;
  const rec3 = recovery(run, S3, D1?.lastSentS);
  const rec4 = recovery(run, S4, S3?.lastSentS);
  features.recoveryS3 = rec3?.got ?? null;
  features.recoveryS4 = rec4?.got ?? null;
  features.expectedS3 = rec3?.expected ?? null;
  features.expectedS4 = rec4?.expected ?? null;
  features.s2bRejected = S2b?.rej ?? null;
  run.evidence.push(
    `after S1 drained the key, the first accept came ${fmt(dead, 2)} s later (a bucket: ≤ ${fmt(deadLimit, 2)} s)`,
    `S2 at 4r accepted ${S2.ok} of ${S2.sent} (share after the first accept ${fmt(share2, 2)}; a bucket ≈ ${fmt(expectedShare2, 2)})`,
    `S2b at 0.9r: ${S2b?.rej ?? 'n/a'} × 429 (a bucket: 0)`,
    `recovery after ${fmt(rec3?.idle)} s idle: ${fmt(rec3?.got)} tokens (bucket ≈ ${fmt(rec3?.expected)}); after ${fmt(rec4?.idle)} s: ${fmt(rec4?.got)} (bucket ≈ ${fmt(rec4?.expected)})`,
  );
  return {
    resumes: dead <= deadLimit,
    trickle: share2 !== undefined && share2 <= Math.min(0.8, 2 * expectedShare2 + 0.1),
    underRateClean: S2b !== undefined && S2b.rej === 0,
    proportional: near(rec3) && near(rec4),
  };
}

/** Nothing accepted between S1 and S4: how much of the quota S4 found again. */
function quietUntilS4(run: Run): LimiterClassification {
  const { S1, quota } = run;
  const S4 = run.agg.S4;
  const s4 = S4?.okBeforeFirstRej ?? 0;
  // S4 sends past B: all accepted means at least the whole quota came back.
  const whole = S4 !== undefined && S4.rej === 0 && S4.ok > 0;
  run.evidence.push(
    `no accept from the end of S1 until S4 (${fmt((S4?.firstSentS ?? 0) - (S1.firstSentS ?? 0))} s after S1); S4 regained ${s4} of ${quota}`,
  );
  if (whole || s4 >= 0.8 * quota) {
    run.evidence.push(
      `the whole quota came back at once only after ${WINDOW_S} s: a log of the last ${WINDOW_S} s (or a fixed window whose boundary fell in the idle time)`,
    );
    return classified(run, 'sliding-log', 'low', ['fixed-window']);
  }
  if (s4 > 0) {
    run.evidence.push('only part of the quota came back: a weighted window count');
    return classified(run, 'sliding-counter', 'low');
  }
  return classified(run, 'unknown', 'low');
}

/** A window limiter reopened somewhere between S1 and S4: how much came back, how fast? */
function windowReopened(run: Run): LimiterClassification {
  const { agg, schedule, quota, features } = run;
  const order = [agg.S2, agg.S2b, agg.D1, agg.S3, agg.S4].filter(
    (p): p is PhaseAgg => p !== undefined,
  );
  const reopenIdx = order.findIndex((p) => p.ok > 0);
  const reopen = order[reopenIdx]!;
  let regained = 0;
  let until = reopen.lastSentS ?? 0;
  for (const p of order.slice(reopenIdx)) {
    const isBurst = schedule.phases.find((x) => x.name === p.phase)?.kind === 'burst';
    if (isBurst && p.firstRejSentS !== undefined) {
      regained += p.okBeforeFirstRej;
      until = p.firstRejSentS;
      break;
    }
    regained += p.ok;
    until = p.lastSentS ?? until;
  }
  const since = Math.max(0.001, until - (run.S1.lastSentS ?? 0));
  // A weighted window frees at most quota/W per second after its boundary, across windows.
  const counterCap = (quota * (since + 1)) / WINDOW_S;
  features.regainedAfterReopen = regained;
  features.regainedOverS = since;
  const shareReopen = acceptShareAfterReopen(reopen, phaseRate(schedule, reopen.phase));
  features.reopenAcceptShare = shareReopen ?? null;
  run.evidence.push(
    `accepts resumed in ${reopen.phase}; ${regained} accepted within ${fmt(since)} s of S1's end (quota ${quota}; a weighted window could free at most ${fmt(counterCap)})`,
  );
  const allAtOnce = regained > counterCap + 2;
  if (allAtOnce || (shareReopen !== undefined && shareReopen >= 0.9 && regained >= 0.5 * quota)) {
    run.evidence.push('capacity came back all at once at a boundary');
    return classified(run, 'fixed-window', allAtOnce ? 'high' : 'low');
  }
  run.evidence.push('capacity came back gradually after a dead period');
  return classified(run, 'sliding-counter', 'low', ['fixed-window']);
}

export function classifyLimiter(
  agg: Aggregates,
  schedule: Schedule,
  rHat: number,
  burstHat: number | null,
): LimiterClassification {
  const { S1, S2 } = agg;
  if (!S1 || !S2 || S1.rej === 0) {
    return {
      algorithm: 'unknown',
      confidence: 'low',
      alternatives: [],
      evidence: ['S1 never reached a 429 (or S2 did not run): nothing to classify'],
      features: {},
    };
  }
  const r = Number.isFinite(rHat) && rHat > 0 ? rHat : schedule.r;
  const quota = burstHat ?? S1.okBeforeFirstRej;
  const run: Run = { agg, schedule, S1, S2, r, quota, evidence: [], features: {} };
  const tb = bucketSignatures(run);
  run.keptToRate = tb.underRateClean && tb.proportional;
  const tbScore = Object.values(tb).filter(Boolean).length;
  if (tbScore === 4) return classified(run, 'token-bucket', 'high');
  const okMid = [S2, agg.S2b, agg.D1, agg.S3].reduce((n, p) => n + (p?.ok ?? 0), 0);
  run.features.acceptedBetweenS1AndS4 = okMid;
  if (okMid === 0) return quietUntilS4(run);
  if (tbScore === 3 && tb.resumes) {
    const missing = Object.entries(tb).filter(([, v]) => !v);
    run.evidence.push(`one bucket signature missing: ${missing.map(([k]) => k).join(', ')}`);
    return classified(run, 'token-bucket', 'low');
  }
  return windowReopened(run);
}
