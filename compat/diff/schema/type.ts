/** Type changes: a schema's set of types, and whether one set allows every value of another. */
import type { Obj } from '../walk-context.ts';
import { ats, report, type Step } from './step.ts';
import type { View } from './view.ts';

export function typeSet(s: Obj, param = false): Set<string> | undefined {
  let types: string[] | undefined;
  if (typeof s.type === 'string') types = [s.type];
  else if (Array.isArray(s.type)) types = s.type.map(String);
  if (!types) return undefined;
  if (s.nullable === true) types.push('null');
  // A URL or header cannot carry a JSON null: for parameters it is not part of the contract.
  if (param && types.length > 1) types = types.filter((t) => t !== 'null');
  return new Set(types);
}

const TEXTUAL = new Set(['integer', 'number', 'boolean']);

/**
 * Every type in `b` is allowed by `a` (an integer is a number; in a parameter, where every value
 * is text on the wire, a string also takes numbers and booleans).
 */
function covers(a: Set<string> | undefined, b: Set<string> | undefined, param = false): boolean {
  if (!a) return true;
  if (!b) return false;
  for (const t of b) {
    if (a.has(t) || (t === 'integer' && a.has('number'))) continue;
    if (param && a.has('string') && TEXTUAL.has(t)) continue;
    return false;
  }
  return true;
}

export function diffType(st: Step): void {
  const { ctx, ov, nv } = st;
  const ot = typeSet(ov.s, ctx.param);
  const nt = typeSet(nv.s, ctx.param);
  // In a parameter a plain string takes any number as text, but not once a format or pattern binds it.
  const plain = (v: View) =>
    ctx.param === true && v.s.format === undefined && v.s.pattern === undefined && !('enum' in v.s);
  const widened = !covers(ot, nt, plain(ov));
  const narrowed = !covers(nt, ot, plain(nv));
  if (!widened && !narrowed) return;
  const how = widened && narrowed ? 'changed' : widened ? 'widened' : 'narrowed';
  const show = (t: Set<string> | undefined) => (t ? [...t].join('|') : 'any');
  report(
    st,
    `type-${how}`,
    `type ${how} from ${show(ot)} to ${show(nt)}`,
    ats(st, 'type', ot !== undefined, nt !== undefined),
  );
}
