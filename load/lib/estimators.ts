/**
 * B̂ and r̂ with their uncertainties, from the phase aggregates.
 *
 * Burst (S1). The bucket is full when the first request of S1 arrives (a₀) and S1 is sent well
 * past B, so its last arrival (a_z) finds less than one token. A token bucket of capacity B and
 * rate r that accepted N requests in between satisfies
 *   N − r·(a_z − a₀) ≤ B < N + 1 − r·(a_z − a₀).
 * Counting every accept of the burst rather than those "before the first 429" keeps the estimate
 * free of the arrival order, which a concurrent client cannot observe. Arrival times are
 * bracketed by our send and receive times: Δ = a_z − a₀ ∈ [last send − first receive,
 * last receive − first send]; r ranges over r̂'s interval. B̂ is the middle of the resulting
 * interval and its half-width the uncertainty. Fired within one refill interval the interval is
 * [N, N+1): an off-by-one burst cannot hide.
 *
 * Rate (S2, drained bucket, overdrive at 4r). Accepts then come one per refilled token: whoever
 * saw all of S2 in order (the Node driver; k6's single-VU S2) regresses the accept rank on the
 * accept time (slope r̂, 95 % CI from the slope's standard error, so timing noise widens it).
 * With moments only (S2 split over generators) for evenly spaced accepts Var(t) = (n²−1)/(12 r²).
 */
import type { PhaseAgg } from './metrics.ts';
import { t95 } from './stats.ts';

export interface RateEstimate {
  method: 'regression' | 'moments' | 'none';
  /** Tokens per server second. */
  perS: number;
  perMin: number;
  ciLowPerS: number;
  ciHighPerS: number;
  /** Half-width of the 95 % interval relative to r̂. */
  relUncertainty: number;
  n: number;
  spanS: number;
}

export interface BurstEstimate {
  /** Null when S1 saw no 429: the burst is above what was sent. */
  value: number | null;
  low: number;
  high: number;
  uncertainty: number;
  acceptedBeforeFirst429: number;
  /** Accepted in the whole burst (S1): the count the estimate starts from. */
  acceptedInBurst: number;
  /** r·Δ subtracted (middle of its range). */
  refillCorrection: number;
  deltaLowS: number;
  deltaHighS: number;
}

export function estimateRate(s2: PhaseAgg | undefined, phaseRate: number): RateEstimate {
  const none: RateEstimate = {
    method: 'none',
    perS: Number.NaN,
    perMin: Number.NaN,
    ciLowPerS: Number.NaN,
    ciHighPerS: Number.NaN,
    relUncertainty: Number.NaN,
    n: s2?.okTimes.n ?? 0,
    spanS: 0,
  };
  if (!s2 || s2.okTimes.n < 3) return none;
  const fit = s2.okFit;
  if (fit && fit.n >= 3 && fit.slope > 0) {
    const half = t95(fit.n - 2) * fit.slopeSe;
    return {
      method: 'regression',
      perS: fit.slope,
      perMin: fit.slope * 60,
      ciLowPerS: fit.slope - half,
      ciHighPerS: fit.slope + half,
      relUncertainty: half / fit.slope,
      n: fit.n,
      spanS: fit.spanS,
    };
  }
  // Aggregates only (S2 split over several generators, or cut short before its end).
  const { n, sum, sumSq, min, max } = s2.okTimes;
  const mean = sum / n;
  const variance = sumSq / n - mean * mean;
  if (!(variance > 0)) return none;
  const perS = Math.sqrt((n * n - 1) / (12 * variance));
  // Each accept lands up to one arrival interval after its token: uniform error of width 1/λ.
  const sigmaE = 1 / (phaseRate * Math.sqrt(12));
  const rel = (1.96 * sigmaE) / (Math.sqrt(variance) * Math.sqrt(n));
  return {
    method: 'moments',
    perS,
    perMin: perS * 60,
    ciLowPerS: perS * (1 - rel),
    ciHighPerS: perS * (1 + rel),
    relUncertainty: rel,
    n,
    spanS: max - min,
  };
}

export function estimateBurst(
  s1: PhaseAgg | undefined,
  rate: { lowPerS: number; highPerS: number },
): BurstEstimate | undefined {
  if (!s1 || s1.firstSentS === undefined || s1.firstRecvS === undefined) return undefined;
  const N = s1.ok;
  const base = {
    acceptedBeforeFirst429: s1.okBeforeFirstRej,
    acceptedInBurst: N,
  };
  if (s1.rej === 0 || s1.lastSentS === undefined || s1.lastRecvS === undefined) {
    return {
      ...base,
      value: null,
      low: N,
      high: Number.POSITIVE_INFINITY,
      uncertainty: Number.POSITIVE_INFINITY,
      refillCorrection: 0,
      deltaLowS: 0,
      deltaHighS: 0,
    };
  }
  const dLo = Math.max(0, s1.lastSentS - s1.firstRecvS);
  const dHi = Math.max(dLo, s1.lastRecvS - s1.firstSentS);
  const rLo = Math.max(0, rate.lowPerS);
  const rHi = Math.max(rLo, rate.highPerS);
  let low = N - rHi * dHi;
  let high = N + 1 - rLo * dLo;
  const brackets = s1.rejBrackets;
  if (brackets && brackets.length > 0) {
    // Exact per-429 bounds (Node): a 429 at a_j means fewer than one token then, and tokens
    // never go below zero: Acc(a_j) − r·(a_j − a₀) ≤ B < Acc(a_j) + 1 − r·(a_j − a₀).
    // The tightest 429s (short round trip, no accept in flight) decide.
    const e0 = Math.min(s1.firstRecvS, s1.minRecvS ?? s1.firstRecvS);
    let lo = low;
    let hi = Number.POSITIVE_INFINITY;
    for (const j of brackets) {
      lo = Math.max(lo, j.lowCount - rHi * Math.max(0, j.recvS - s1.firstSentS));
      hi = Math.min(hi, j.highCount + 1 - rLo * Math.max(0, j.sentS - e0));
    }
    if (lo <= hi) {
      low = lo;
      high = hi;
    }
  }
  return {
    ...base,
    value: (low + high) / 2,
    low,
    high,
    uncertainty: (high - low) / 2,
    refillCorrection: ((rLo + rHi) / 2) * ((dLo + dHi) / 2),
    deltaLowS: dLo,
    deltaHighS: dHi,
  };
}

/**
 * Tokens regained after an idle period, measured like the burst: accepted before the first 429
 * of a burst phase, minus the refill while that burst ran.
 */
export function recoveredTokens(p: PhaseAgg | undefined, ratePerS: number): number | undefined {
  if (!p || p.firstSentS === undefined) return undefined;
  if (p.firstRejSentS === undefined) return p.ok;
  const d = Math.max(
    0,
    (p.firstRejSentS + (p.firstRejRecvS ?? p.firstRejSentS)) / 2 - p.firstSentS,
  );
  return p.okBeforeFirstRej - (Number.isFinite(ratePerS) ? ratePerS * d : 0);
}
