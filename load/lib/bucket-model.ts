/**
 * The assumed limiter (gap U24) as a pure function: a token bucket of capacity B refilled at r
 * tokens per second, full at time 0. Used for the expected curve in the charts; the tests'
 * simulated deployments use it too.
 */

export interface Bucket {
  burst: number;
  ratePerS: number;
}

/** Accept/reject for arrivals sorted by time (seconds). */
export function bucketDecisions(b: Bucket, arrivals: readonly number[]): boolean[] {
  let tokens = b.burst;
  let last = arrivals.length > 0 ? arrivals[0]! : 0;
  const out: boolean[] = [];
  for (const t of arrivals) {
    tokens = Math.min(b.burst, tokens + (t - last) * b.ratePerS);
    last = t;
    if (tokens >= 1) {
      tokens -= 1;
      out.push(true);
    } else out.push(false);
  }
  return out;
}

/** Cumulative accepted count at each arrival: points [t, accepted so far]. */
export function expectedCurve(b: Bucket, arrivals: readonly number[]): Array<[number, number]> {
  const decisions = bucketDecisions(b, arrivals);
  let n = 0;
  return arrivals.map((t, i) => {
    if (decisions[i]) n += 1;
    return [t, n];
  });
}
