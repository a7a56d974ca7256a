/** Property changes: properties added, removed, made required or optional, and `dependentRequired`. */
import { isObj, resolve } from '../walk-context.ts';
import { ats, compare, type Ptrs, report, type Step } from './step.ts';

/** A property that never travels this way (`readOnly` in a request, `writeOnly` in a response). */
function oneWay(st: Step, raw: unknown): boolean {
  const s = resolve(st.ctx.newDoc, raw, '').node;
  if (!isObj(s)) return false;
  return st.side.polarity === 'in' ? s.readOnly === true : s.writeOnly === true;
}

function became(st: Step, name: string, isReq: boolean, ptrs: Ptrs): void {
  const now = isReq ? 'required' : 'optional';
  report(st, `property-became-${now}`, `became ${now}`, ptrs, name);
}

export function diffProperties(st: Step): void {
  const { side, ov, nv } = st;
  const sub = (k: string) => (st.name === '' ? k : `${st.name}.${k}`);
  const out = side.polarity === 'out';
  for (const [k, op] of ov.props) {
    const np = nv.props.get(k);
    const wasReq = ov.required.has(k);
    if (!np) {
      // Receivers lose the field; clients still sending it may now be rejected (or have it
      // silently ignored).
      report(
        st,
        out && !wasReq ? 'optional-property-removed' : 'property-removed',
        out ? `${wasReq ? 'required' : 'optional'} property removed` : 'property removed',
        [op.ptr, nv.ptr],
        sub(k),
      );
      continue;
    }
    const isReq = nv.required.has(k);
    if (wasReq !== isReq && !oneWay(st, np.raw)) became(st, sub(k), isReq, [op.ptr, np.ptr]);
    compare(st, [op.raw, op.ptr, np.raw, np.ptr], sub(k));
  }
  // `required` naming a property neither version declares (common inside `not`, `if`, branches).
  const reqPtrs = ats(st, 'required', Array.isArray(ov.s.required), Array.isArray(nv.s.required));
  for (const k of new Set([...ov.required, ...nv.required])) {
    const isReq = nv.required.has(k);
    if (!ov.props.has(k) && !nv.props.has(k) && ov.required.has(k) !== isReq)
      became(st, sub(k), isReq, reqPtrs);
  }
  for (const [k, np] of nv.props) {
    if (ov.props.has(k)) continue;
    const isReq = nv.required.has(k);
    const breaking = !out && isReq && !oneWay(st, np.raw);
    const rule = breaking ? 'required-property-added' : 'property-added';
    const message = `${isReq ? 'required' : 'optional'} property added`;
    report(st, rule, message, [ov.ptr, np.ptr], sub(k));
  }
}

/** Dependent requirements: `when A is present, B is required`. */
export function diffDependentRequired(st: Step): void {
  const { ov, nv } = st;
  const odr = isObj(ov.s.dependentRequired) ? ov.s.dependentRequired : {};
  const ndr = isObj(nv.s.dependentRequired) ? nv.s.dependentRequired : {};
  const list = (v: unknown) => new Set(Array.isArray(v) ? v.map(String) : []);
  const added: string[] = [];
  const removed: string[] = [];
  for (const k of new Set([...Object.keys(odr), ...Object.keys(ndr)])) {
    const a = list(odr[k]);
    const z = list(ndr[k]);
    for (const x of z) if (!a.has(x)) added.push(`${k} → ${x}`);
    for (const x of a) if (!z.has(x)) removed.push(`${k} → ${x}`);
  }
  const ptrs = ats(st, 'dependentRequired');
  if (added.length > 0) {
    const message = `now required together: ${added.join(', ')}`;
    report(st, 'dependent-required-added', message, ptrs);
  }
  if (removed.length > 0) {
    const message = `no longer required together: ${removed.join(', ')}`;
    report(st, 'dependent-required-removed', message, ptrs);
  }
}
