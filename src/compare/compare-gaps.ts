/**
 * Observed gap values (the U-table probes) compared: probes run on one side only, and values
 * that changed beyond run-to-run noise (volatile text, timing jitter).
 */
import { canonical } from './canonical.ts';
import { byText, union } from './order.ts';
import type { Findings } from './rules.ts';

const gapOrder = (a: string, b: string) => {
  const n = (s: string) => (/^U\d+$/.test(s) ? Number(s.slice(1)) : Number.POSITIVE_INFINITY);
  return n(a) - n(b) || a.localeCompare(b);
};

export function compareGaps(
  out: Findings,
  a: Record<string, Record<string, unknown>>,
  b: Record<string, Record<string, unknown>>,
): void {
  for (const gap of union(a, b).sort(gapOrder)) {
    const x = a[gap] ?? {};
    const y = b[gap] ?? {};
    for (const probe of union(x, y).sort(byText)) {
      const where = { gap, probe };
      if (!(probe in y)) {
        out.add('gap-not-observed', `${gap} “${probe}” was not probed in this run`, where, {
          baseline: x[probe],
        });
      } else if (!(probe in x)) {
        out.add('gap-probe-added', `${gap} “${probe}” is probed now`, where, { current: y[probe] });
      } else if (!sameProbeValue(probe, x[probe], y[probe])) {
        out.add(
          'gap-value-changed',
          `${gap} “${probe}” was ${canonical(x[probe])}, is ${canonical(y[probe])}`,
          where,
          { baseline: x[probe], current: y[probe] },
        );
      }
    }
  }
}

/** A probe that names a duration unit records timings, which jitter from run to run. */
const TIMING = /\b(ms|milliseconds?|seconds?|spacing|latency|duration|delay)\b/i;

/** Timings agree within ±50 % (and ±50 ms); their order of magnitude is the behaviour. */
function closeTiming(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= Math.max(50, 0.5 * Math.max(Math.abs(a), Math.abs(b)));
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => closeTiming(v, b[i]));
  return canonical(a) === canonical(b);
}

function sameProbeValue(probe: string, a: unknown, b: unknown): boolean {
  return TIMING.test(probe) ? closeTiming(a, b) : canonical(a) === canonical(b);
}
