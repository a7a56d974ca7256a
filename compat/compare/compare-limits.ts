/**
 * Plan-limit estimates compared: burst and rate within tolerance, the announced limit, the
 * algorithm, reset unit and scope; something measured on one side only is "not measured".
 */
import type { PlanLimitObservation } from '../../core/snapshot/types.ts';
import { canonical } from './canonical.ts';
import { byText } from './order.ts';
import type { Findings } from './rules.ts';
import type { CompareOptions } from './types.ts';

/** Values a limit classifier gives when it could not tell: not a measurement. */
const UNMEASURED = new Set(['unknown', 'inconclusive', 'missing-data', '']);
const measured = (v: unknown): boolean =>
  typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && !UNMEASURED.has(v);

export function compareLimits(
  out: Findings,
  a: readonly PlanLimitObservation[],
  b: readonly PlanLimitObservation[],
  opts: CompareOptions,
): void {
  const burstTol = opts.burstTolerance ?? 3;
  const rateTol = opts.rateTolerance ?? 0.03;
  const byPlan = (xs: readonly PlanLimitObservation[]) => new Map(xs.map((l) => [l.plan, l]));
  const x = byPlan(a);
  const y = byPlan(b);
  for (const plan of [...new Set([...x.keys(), ...y.keys()])].sort(byText)) {
    const l = x.get(plan);
    const m = y.get(plan);
    if (!l || !m) {
      out.add(
        'limit-not-measured',
        `${plan} plan limits were not measured ${l ? 'in this run' : 'in the baseline'}`,
        { plan },
        { baseline: l, current: m },
      );
      continue;
    }
    const props = [
      ['burst', 'limit-burst-changed', (p: number, q: number) => Math.abs(p - q) > burstTol],
      [
        'ratePerMin',
        'limit-rate-changed',
        (p: number, q: number) => Math.abs(p - q) > rateTol * Math.abs(p),
      ],
      ['limitHeader', 'limit-header-changed', (p: number, q: number) => p !== q],
      ['algorithm', 'limit-algorithm-changed', undefined],
      ['resetUnit', 'limit-reset-unit-changed', undefined],
      ['scope', 'limit-scope-changed', undefined],
    ] as const;
    for (const [property, rule, differs] of props) {
      const p = l[property];
      const q = m[property];
      if (p === undefined && q === undefined) continue;
      const where = { plan, property };
      const values = { baseline: p, current: q };
      if (!measured(p) || !measured(q)) {
        if (canonical(p) !== canonical(q))
          out.add(
            'limit-not-measured',
            `${plan} ${property} was not measured ${measured(p) ? 'in this run' : 'in the baseline'} (${String(p)} → ${String(q)})`,
            where,
            values,
          );
        continue;
      }
      const changed = differs ? differs(p as number, q as number) : p !== q;
      if (changed) out.add(rule, `${plan} ${property} was ${p}, is ${q}`, where, values);
    }
  }
}
