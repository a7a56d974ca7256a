/**
 * Observed gap values (the U-table probes) compared, probe by probe under its stable id (a label
 * is for people: rewording it changes nothing): probes run on one side only, and values that
 * changed beyond run-to-run noise (volatile text, timing jitter). A value a run could not observe
 * for its data (core/snapshot/not-observable.ts) is left out with a `data` note, on either side.
 */
import { isNotObservable } from '../../core/snapshot/not-observable.ts';
import { canonical } from './canonical.ts';
import { byText, union } from './order.ts';
import type { Findings } from './rules.ts';

type Gaps = Record<string, Record<string, unknown>>;
type Labels = Record<string, Record<string, string>>;

const gapOrder = (a: string, b: string) => {
  const n = (s: string) => (/^U\d+$/.test(s) ? Number(s.slice(1)) : Number.POSITIVE_INFINITY);
  return n(a) - n(b) || a.localeCompare(b);
};

export function compareGaps(out: Findings, a: Gaps, b: Gaps, labels: Labels = {}): void {
  for (const gap of union(a, b).sort(gapOrder)) {
    const x = a[gap] ?? {};
    const y = b[gap] ?? {};
    for (const probe of union(x, y).sort(byText)) {
      const where = { gap, probe };
      const name = `${gap} “${labels[gap]?.[probe] ?? probe}”`;
      const unseen = [
        ['the baseline', x[probe]],
        ['this run', y[probe]],
      ].filter(([, v]) => isNotObservable(v)) as Array<[string, { notObservable: string }]>;
      if (unseen.length) {
        const why = unseen.map(([who, v]) => `${who} could not observe it: ${v.notObservable}`);
        out.note('data', `${name} not compared (${why.join('; ')})`, where);
        continue;
      }
      if (!(probe in y)) {
        out.add('gap-not-observed', `${name} was not recorded in this run`, where, {
          baseline: x[probe],
        });
      } else if (!(probe in x)) {
        out.add('gap-probe-added', `${name} is probed now`, where, { current: y[probe] });
      } else if (!sameProbeValue(probe, x[probe], y[probe])) {
        out.add(
          'gap-value-changed',
          `${name} was ${canonical(x[probe])}, is ${canonical(y[probe])}`,
          where,
          { baseline: x[probe], current: y[probe] },
        );
      }
    }
  }
}

/** A probe whose id ends in `-ms` records timings (contracts/fixtures.ts `probe`). */
export const isTiming = (probe: string): boolean => /-ms(:|$)/.test(probe);

/**
 * How far a timing may move and still be the same behaviour: from a third of the baseline's
 * smallest to three times its largest plus 200 ms (a busy machine only ever makes things later).
 * Jitter and a loaded CI runner stay inside; a change of order of magnitude (a 100 ms backoff
 * become 1 s, or no backoff at all) does not.
 */
export const TIMING_TOLERANCE = { factor: 3, slackMs: 200 };

/** Every number in a timing value (a number, a list, a `{varies: […]}` of either). */
function numbers(v: unknown): number[] | undefined {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) {
    const all = v.map(numbers);
    return all.every((n) => n !== undefined) ? all.flat() : undefined;
  }
  if (v && typeof v === 'object' && Array.isArray((v as { varies?: unknown }).varies))
    return numbers((v as { varies: unknown[] }).varies);
  return undefined;
}

/**
 * Timings compare as ranges: every current value must fall in the baseline's range widened by
 * the tolerance. How many there are (one retry or two) is another probe's business.
 */
export function timingInRange(baseline: unknown, current: unknown): boolean {
  const base = numbers(baseline);
  const cur = numbers(current);
  if (!base || !cur || base.length === 0 || cur.length === 0)
    return canonical(baseline) === canonical(current);
  const { factor, slackMs } = TIMING_TOLERANCE;
  const lo = Math.min(...base) / factor;
  const hi = Math.max(...base) * factor + slackMs;
  return cur.every((v) => v >= lo && v <= hi);
}

/** Whether two values of `probe` are the same behaviour (beyond run-to-run noise). */
export function sameProbeValue(probe: string, a: unknown, b: unknown): boolean {
  return isTiming(probe) ? timingInRange(a, b) : canonical(a) === canonical(b);
}
