/** A schema seen with its `allOf` parts folded in, so moving a property into a part is not a change. */
import { join } from '../pointer.ts';
import { isObj, type Obj, resolve } from '../walk-context.ts';

export interface PropRef {
  raw: unknown;
  ptr: string;
}

export interface View {
  s: Obj;
  ptr: string;
  props: Map<string, PropRef>;
  required: Set<string>;
}

export function view(doc: unknown, node: unknown, ptr: string, depth = 0): View {
  const s = isObj(node) ? node : {};
  const v: View = { s, ptr, props: new Map(), required: new Set() };
  if (isObj(s.properties)) {
    for (const [k, raw] of Object.entries(s.properties))
      v.props.set(k, { raw, ptr: join(ptr, 'properties', k) });
  }
  if (Array.isArray(s.required)) for (const r of s.required) v.required.add(String(r));
  if (Array.isArray(s.allOf) && depth < 16) {
    s.allOf.forEach((part, i) => {
      const r = resolve(doc, part, join(ptr, 'allOf', i));
      const pv = view(doc, r.node, r.ptr, depth + 1);
      for (const [k, p] of pv.props) if (!v.props.has(k)) v.props.set(k, p);
      for (const k of pv.required) v.required.add(k);
      for (const [k, val] of Object.entries(pv.s)) {
        if (!(k in v.s) && k !== 'properties' && k !== 'required' && k !== 'allOf')
          v.s = { ...v.s, [k]: val };
      }
    });
  }
  return v;
}

/** The pointer to keyword `kw` of the schema when `has` (by default: when it has `kw`), else to the schema. */
export function at(v: View, kw: string, has = kw in v.s): string {
  return has ? join(v.ptr, kw) : v.ptr;
}
