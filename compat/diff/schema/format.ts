/**
 * `format`, read as oasdiff reads it — a refinement of the type: a request parameter that gains
 * `format: int64` accepts fewer values (ERR), a response field that loses `format: phone-number`
 * may carry any string (ERR). Rated by the direction values travel, like every other rule:
 * a request dropping a format or a response gaining one is INFO (oasdiff: ERR, see rules.ts).
 * A wider format containing the narrower (int32 → int64, date → date-time) widens.
 */
import { ats, report, type Step } from './step.ts';
import { typeSet } from './type.ts';

/** A format and the narrower ones it contains (oasdiff's generalisations: int32 → int64 is one). */
const CONTAINS: Readonly<Record<string, readonly string[]>> = {
  int64: ['int32'],
  double: ['float'],
  'date-time': ['date', 'time'],
};

export function diffFormat(st: Step): void {
  const a = typeof st.ov.s.format === 'string' ? st.ov.s.format : undefined;
  const z = typeof st.nv.s.format === 'string' ? st.nv.s.format : undefined;
  if (a === z) return;
  // A new type with its format is one change, the type rule's (oasdiff rates type/format as one).
  const types = (t: Set<string> | undefined) => (t ? [...t].sort().join('|') : '');
  if (types(typeSet(st.ov.s, st.ctx.param)) !== types(typeSet(st.nv.s, st.ctx.param))) return;
  const message = `format ${JSON.stringify(a ?? null)} → ${JSON.stringify(z ?? null)}`;
  const ptrs = ats(st, 'format', a !== undefined, z !== undefined);
  if (a === undefined || z === undefined) {
    report(st, `format-${a === undefined ? 'added' : 'removed'}`, message, ptrs);
    return;
  }
  const how = CONTAINS[z]?.includes(a)
    ? 'widened'
    : CONTAINS[a]?.includes(z)
      ? 'narrowed'
      : 'changed';
  report(st, `format-${how}`, message, ptrs);
}
