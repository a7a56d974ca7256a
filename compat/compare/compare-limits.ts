/**
 * Plan limits compared. Burst and rate are measurements: a change is a finding only when the
 * two intervals do not overlap (each run's interval is the one its load verdicts judged by), and
 * a measurement its run called inconclusive is never compared as a number. The announced limit,
 * the algorithm, Reset unit and scope are compared as they are. What one run did not measure is
 * a note, never a finding.
 */
import type { Measurement, PlanLimitObservation } from '../../core/snapshot/types.ts';
import { byText } from './order.ts';
import type { Findings, RuleId } from './rules.ts';
import type { CompareOptions } from './types.ts';

/** Values a limit classifier gives when it could not tell: not a measurement. */
const UNMEASURED = new Set(['unknown', 'inconclusive', 'missing-data', '']);
const classified = (v: unknown): boolean => typeof v === 'string' && !UNMEASURED.has(v);

/**
 * A version 2 snapshot kept the value rounded (burst to a token, rate to 0.1/min): without an
 * interval, that rounding is all the uncertainty it has.
 */
const ROUNDING = { burst: 0.5, ratePerMin: 0.05 } as const;

/**
 * Before version 3 a limit carried no interval; two such snapshots fall back to the fixed
 * tolerance version 2 compared them with.
 */
const V2_TOLERANCE = { burst: 3, ratePerMin: 0.03 } as const;

type Measured = 'burst' | 'ratePerMin';
const RULE: Record<Measured, RuleId> = {
  burst: 'limit-burst-changed',
  ratePerMin: 'limit-rate-changed',
};

const f = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
const text = (m: Measurement) =>
  m.low !== undefined && m.high !== undefined
    ? `${f(m.value)} [${f(m.low)}, ${f(m.high)}]`
    : `${f(m.value)} (no interval)`;

function interval(m: Measurement, property: Measured): [number, number] {
  if (m.low !== undefined && m.high !== undefined) return [m.low, m.high];
  return [m.value - ROUNDING[property], m.value + ROUNDING[property]];
}

function compareMeasurement(
  out: Findings,
  plan: string,
  property: Measured,
  p: Measurement | undefined,
  q: Measurement | undefined,
  opts: CompareOptions,
): void {
  const where = { plan, property };
  if (!p && !q) return;
  if (!p || !q) {
    out.note(
      'not-measured',
      `${plan} ${property} was not measured ${p ? 'in this run' : 'in the baseline'}`,
      where,
    );
    return;
  }
  if (p.inconclusive || q.inconclusive) {
    const which = [
      p.inconclusive && `the baseline's ${text(p)}`,
      q.inconclusive && `this run's ${text(q)}`,
    ];
    out.note(
      'inconclusive',
      `${plan} ${property}: ${which.filter(Boolean).join(' and ')} inconclusive (its load verdict could not vouch for it), not compared`,
      where,
    );
    return;
  }
  const values = { baseline: p, current: q };
  const hasP = p.low !== undefined && p.high !== undefined;
  const hasQ = q.low !== undefined && q.high !== undefined;
  if (!hasP && !hasQ) {
    const tol =
      property === 'burst'
        ? (opts.burstTolerance ?? V2_TOLERANCE.burst)
        : (opts.rateTolerance ?? V2_TOLERANCE.ratePerMin) * Math.abs(p.value);
    out.note(
      'no-interval',
      `${plan} ${property}: neither run recorded an interval, compared within the fixed ± ${f(tol)} of snapshot version 2`,
      where,
    );
    if (Math.abs(p.value - q.value) > tol)
      out.add(
        RULE[property],
        `${plan} ${property} was ${f(p.value)}, is ${f(q.value)}`,
        where,
        values,
      );
    return;
  }
  if (!hasP || !hasQ)
    out.note(
      'no-interval',
      `${plan} ${property}: ${hasP ? 'this run' : 'the baseline'} recorded ${f((hasP ? q : p).value)} without an interval, compared with the other's interval only`,
      where,
    );
  const [a0, a1] = interval(p, property);
  const [b0, b1] = interval(q, property);
  if (a1 < b0 || b1 < a0)
    out.add(
      RULE[property],
      `${plan} ${property} was ${text(p)}, is ${text(q)}: the intervals do not overlap`,
      where,
      values,
    );
}

/** Whether a snapshot measured plan limits (its load area ran and measured). */
function measuredLimits(s: {
  exercised?: { areas: string[] };
  limits: readonly unknown[];
}): boolean {
  return s.exercised ? s.exercised.areas.includes('load') : s.limits.length > 0;
}

export function compareLimits(
  out: Findings,
  base: { exercised?: { areas: string[] }; limits: readonly PlanLimitObservation[] },
  cur: { exercised?: { areas: string[] }; limits: readonly PlanLimitObservation[] },
  opts: CompareOptions,
): void {
  const inBase = measuredLimits(base);
  const inCur = measuredLimits(cur) && opts.limits !== false;
  if (!inBase || !inCur) {
    if (inBase || inCur)
      out.note(
        'not-measured',
        `plan limits were not measured ${inBase ? 'in this run (no load area)' : 'in the baseline'}: not compared`,
        {},
      );
    return;
  }
  const byPlan = (xs: readonly PlanLimitObservation[]) => new Map(xs.map((l) => [l.plan, l]));
  const x = byPlan(base.limits);
  const y = byPlan(cur.limits);
  for (const plan of [...new Set([...x.keys(), ...y.keys()])].sort(byText)) {
    const l = x.get(plan);
    const m = y.get(plan);
    if (!l || !m) {
      out.note(
        'not-measured',
        `${plan} plan limits were not measured ${l ? 'in this run' : 'in the baseline'}`,
        { plan },
      );
      continue;
    }
    compareMeasurement(out, plan, 'burst', l.burst, m.burst, opts);
    compareMeasurement(out, plan, 'ratePerMin', l.ratePerMin, m.ratePerMin, opts);
    if (l.limitHeader !== undefined || m.limitHeader !== undefined) {
      const where = { plan, property: 'limitHeader' };
      if (l.limitHeader === undefined || m.limitHeader === undefined)
        out.note('not-measured', `${plan} limitHeader was seen in one run only`, where);
      else if (l.limitHeader !== m.limitHeader)
        out.add(
          'limit-header-changed',
          `${plan} limitHeader was ${l.limitHeader}, is ${m.limitHeader}`,
          where,
          { baseline: l.limitHeader, current: m.limitHeader },
        );
    }
    const classes = [
      ['algorithm', 'limit-algorithm-changed'],
      ['resetUnit', 'limit-reset-unit-changed'],
      ['scope', 'limit-scope-changed'],
    ] as const;
    for (const [property, rule] of classes) {
      const p = l[property];
      const q = m[property];
      if (p === undefined && q === undefined) continue;
      const where = { plan, property };
      // A classification its classifier was not sure of is no more a value than an
      // inconclusive measurement.
      const unsure =
        property === 'algorithm' && [l, m].find((x) => x.algorithmConfidence === 'low');
      if (unsure && p !== q) {
        out.note(
          'inconclusive',
          `${plan} algorithm: ${unsure === l ? "the baseline's" : "this run's"} ${String(unsure.algorithm)} was classified with low confidence (${String(p)} → ${String(q)}), not compared`,
          where,
        );
        continue;
      }
      if (!classified(p) || !classified(q)) {
        if (p !== q)
          out.note(
            'inconclusive',
            `${plan} ${property} could not be told ${classified(p) ? 'in this run' : 'in the baseline'} (${String(p)} → ${String(q)}), not compared`,
            where,
          );
        continue;
      }
      if (p !== q)
        out.add(rule, `${plan} ${property} was ${p}, is ${q}`, where, { baseline: p, current: q });
    }
  }
}
