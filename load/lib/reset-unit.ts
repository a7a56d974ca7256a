/**
 * Classifies the unit of `X-RateLimit-Reset` (gap U23) against the response's `Date` header.
 * The server's clock is the only reference: a deployment with a skewed or time-scaled clock is
 * judged by what it says itself, never by ours.
 */
import { parseHttpDate, parseIntStrict } from './headers.ts';

export type ResetUnit = 'epoch-s' | 'epoch-ms' | 'delta-s' | 'http-date' | 'unknown' | 'missing';

export const RESET_UNITS: readonly ResetUnit[] = [
  'epoch-s',
  'epoch-ms',
  'delta-s',
  'http-date',
  'unknown',
  'missing',
];

/**
 * One response's Reset value read against its Date. `horizonS` bounds how far ahead a reset may
 * lie (time to refill a whole bucket, or a window); values outside it are 'unknown'.
 * Returns the unit and the implied seconds ahead of Date (undefined when not computable).
 */
export function classifyResetValue(
  reset: string | undefined,
  date: string | undefined,
  horizonS: number,
): { unit: ResetUnit; aheadS?: number } {
  if (reset === undefined || reset.trim() === '') return { unit: 'missing' };
  const now = parseHttpDate(date);
  const asDate = parseHttpDate(reset);
  if (asDate !== undefined) {
    return now === undefined ? { unit: 'http-date' } : { unit: 'http-date', aheadS: asDate - now };
  }
  const n = parseIntStrict(reset) ?? (/^\s*\d+\.\d+\s*$/.test(reset) ? Number(reset) : undefined);
  if (n === undefined) return { unit: 'unknown' };
  // Date has whole-second resolution; allow that plus one second of skew between the two.
  const slack = 2;
  if (now !== undefined) {
    const aheadS = n - now;
    if (aheadS >= -slack && aheadS <= horizonS + slack) return { unit: 'epoch-s', aheadS };
    const aheadMs = n / 1000 - now;
    if (aheadMs >= -slack && aheadMs <= horizonS + slack)
      return { unit: 'epoch-ms', aheadS: aheadMs };
  }
  if (n >= 0 && n <= horizonS + slack) return { unit: 'delta-s', aheadS: n };
  return { unit: 'unknown' };
}

export interface ResetUnitReport {
  unit: ResetUnit;
  /** Share of responses that agree with `unit`. */
  agreement: number;
  counts: Partial<Record<ResetUnit, number>>;
  evidence: string[];
}

/** Majority unit over all responses, with the counts as evidence. */
export function summariseResetUnits(
  counts: Partial<Record<ResetUnit, number>>,
  ahead?: { min: number; max: number },
): ResetUnitReport {
  let best: ResetUnit = 'missing';
  let bestN = 0;
  let total = 0;
  for (const u of RESET_UNITS) {
    const n = counts[u] ?? 0;
    total += n;
    if (n > bestN) {
      best = u;
      bestN = n;
    }
  }
  const evidence = [
    `${bestN} of ${total} responses read as ${best} against their own Date header` +
      (total > bestN
        ? ` (others: ${RESET_UNITS.filter((u) => u !== best && (counts[u] ?? 0) > 0)
            .map((u) => `${u} ${counts[u]}`)
            .join(', ')})`
        : ''),
  ];
  if (ahead && Number.isFinite(ahead.min))
    evidence.push(`reset lies ${ahead.min.toFixed(1)}…${ahead.max.toFixed(1)} server s after Date`);
  return {
    unit: total === 0 ? 'missing' : best,
    agreement: total ? bestN / total : 0,
    counts,
    evidence,
  };
}
