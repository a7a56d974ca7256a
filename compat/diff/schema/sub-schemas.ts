/**
 * Sub-schema keywords (JSON Schema 2020-12 applicators included): constraining slots such as
 * `items` or `additionalProperties`, maps of them, `prefixItems`, `if`, and `not`.
 */
import { join } from '../pointer.ts';
import { isObj, type Obj, opposite } from '../walk-context.ts';
import { fingerprint } from './canonical.ts';
import { ats, compare, type Ptrs, report, type Step, trialErrs } from './step.ts';
import { at, type View } from './view.ts';

/**
 * Keywords holding one sub-schema whose presence is a constraint (absent or `true` = anything
 * goes): adding one narrows, removing one widens, and a change inside is compared in place.
 */
const CONSTRAINING: { kw: string; id: string }[] = [
  { kw: 'contains', id: 'contains' },
  { kw: 'propertyNames', id: 'property-names' },
  { kw: 'unevaluatedProperties', id: 'unevaluated-properties' },
  { kw: 'unevaluatedItems', id: 'unevaluated-items' },
  { kw: 'contentSchema', id: 'content-schema' },
  { kw: 'then', id: 'then' },
  { kw: 'else', id: 'else' },
  { kw: 'additionalProperties', id: 'additional-properties' },
  { kw: 'items', id: 'items-schema' },
];

/** Keywords holding a map of name → sub-schema. */
const SCHEMA_MAPS: { kw: string; id: string }[] = [
  { kw: 'patternProperties', id: 'pattern-property' },
  { kw: 'dependentSchemas', id: 'dependent-schema' },
];

/** A sub-schema on one side: its value, where it is, and where the schema holding it is. */
interface Slot {
  v: unknown;
  ptr: string;
  owner: string;
}

/** Absent / `true` is no constraint, `false` admits nothing. */
function kind(v: unknown): 'none' | 'false' | 'schema' {
  if (v === undefined || v === true) return 'none';
  if (v === false) return 'false';
  return isObj(v) && Object.keys(v).length === 0 ? 'none' : 'schema';
}

function diffSlot(st: Step, id: string, a: Slot, z: Slot, name: string): void {
  const sa = kind(a.v);
  const sz = kind(z.v);
  if (sa === 'none' && sz === 'none') return;
  if (sa === 'schema' && sz === 'schema') {
    compare(st, [a.v, a.ptr, z.v, z.ptr], name);
    return;
  }
  if (sa === sz) return; // false → false
  const ptrs: Ptrs = [sa === 'none' ? a.owner : a.ptr, sz === 'none' ? z.owner : z.ptr];
  const closing = id === 'additional-properties' || id === 'unevaluated-properties';
  if (closing && sa !== 'schema' && sz !== 'schema') {
    // Closing an object to undeclared properties: like removing a property a sender might still
    // send, and for receivers like a new optional property when opened (rules.ts rates both).
    const closed = sz === 'false';
    const message = `undeclared properties ${closed ? 'no longer allowed' : 'now allowed'}`;
    report(st, `${id}-${closed ? 'closed' : 'opened'}`, message, ptrs, name);
    return;
  }
  // none < schema < false, from loosest to tightest.
  const rank = { none: 0, schema: 1, false: 2 } as const;
  const tighter = rank[sz] > rank[sa];
  const shown = (s: Slot) => JSON.stringify(s.v === false ? false : 'schema');
  const how =
    sa === 'none' ? 'added' : sz === 'none' ? 'removed' : tighter ? 'tightened' : 'loosened';
  const what = how === 'added' || how === 'removed' ? how : `${shown(a)} → ${shown(z)}`;
  report(st, `${id}-${how}`, `${id.replace(/-/g, ' ')} ${what}`, ptrs, name);
}

export function diffSubSchemas(st: Step): void {
  const { ov, nv, name } = st;
  const slot = (v: View, kw: string): Slot => ({ v: v.s[kw], ptr: join(v.ptr, kw), owner: v.ptr });
  for (const { kw, id } of CONSTRAINING) {
    const sub = kw === 'items' || kw === 'additionalProperties' ? `${name}[]` : name;
    diffSlot(st, id, slot(ov, kw), slot(nv, kw), sub);
  }
  diffIf(st);
  diffNot(st);
  for (const { kw, id } of SCHEMA_MAPS) {
    const om = isObj(ov.s[kw]) ? ov.s[kw] : {};
    const nm = isObj(nv.s[kw]) ? nv.s[kw] : {};
    const entry = (v: View, m: Obj, k: string): Slot => ({
      v: m[k],
      ptr: join(v.ptr, kw, k),
      owner: at(v, kw),
    });
    for (const k of new Set([...Object.keys(om), ...Object.keys(nm)]))
      diffSlot(st, id, entry(ov, om, k), entry(nv, nm, k), `${name}{${k}}`);
  }
  // prefixItems: position i is held to prefixItems[i], positions after them to `items`.
  const opi = Array.isArray(ov.s.prefixItems) ? ov.s.prefixItems : undefined;
  const npi = Array.isArray(nv.s.prefixItems) ? nv.s.prefixItems : undefined;
  const position = (v: View, pi: unknown[] | undefined, i: number): Slot =>
    pi && i < pi.length
      ? { v: pi[i], ptr: join(v.ptr, 'prefixItems', i), owner: v.ptr }
      : slot(v, 'items');
  for (let i = 0; i < Math.max(opi?.length ?? 0, npi?.length ?? 0); i++)
    diffSlot(st, 'prefix-items', position(ov, opi, i), position(nv, npi, i), `${name}[${i}]`);
}

/**
 * if/then/else: the condition itself changing may go either way. An `if` added or removed is
 * only meaningful with then/else, which are compared as constraints of their own.
 */
function diffIf(st: Step): void {
  const { ctx, ov, nv } = st;
  if (ov.s.if === undefined || nv.s.if === undefined) return;
  // Values on one side of the old condition now meet the other branch's constraints.
  if (fingerprint(ctx.oldDoc, ov.s.if) !== fingerprint(ctx.newDoc, nv.s.if))
    report(st, 'if-changed', 'the `if` condition changed', ats(st, 'if'));
}

/** `not`: a change inside inverts its meaning, so it is judged with the polarity flipped. */
function diffNot(st: Step): void {
  const { ctx, side, ov, nv } = st;
  const [onot, nnot] = [ov.s.not, nv.s.not];
  if (onot === undefined && nnot === undefined) return;
  if (fingerprint(ctx.oldDoc, onot) === fingerprint(ctx.newDoc, nnot)) return;
  const ptrs = ats(st, 'not', onot !== undefined, nnot !== undefined);
  if (onot === undefined || nnot === undefined) {
    const how = onot === undefined ? 'added' : 'removed';
    report(st, `not-${how}`, `\`not\` ${how}`, ptrs);
    return;
  }
  const breaks = trialErrs(st, opposite(side), [onot, ptrs[0], nnot, ptrs[1]]) > 0;
  const why =
    side.polarity === 'in'
      ? ' so that values accepted before are now excluded'
      : ' so that values excluded before may now arrive';
  const rule = breaks ? 'not-changed' : 'not-changed-compatible';
  report(st, rule, `\`not\` changed${breaks ? why : ''}`, ptrs);
}
