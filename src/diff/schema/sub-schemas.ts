/**
 * Sub-schema keywords (JSON Schema 2020-12 applicators included): constraining slots such as
 * `items` or `additionalProperties`, maps of them, `prefixItems`, `if`, and `not`.
 */
import { join } from '../pointer.ts';
import { isObj, type Side } from '../walk-context.ts';
import { fingerprint } from './canonical.ts';
import { compare, rate, report, type Step, trialErrs } from './step.ts';
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
    compare(st, a.v, a.ptr, z.v, z.ptr, name);
    return;
  }
  if (sa === sz) return; // false → false
  const oPtr = sa === 'none' ? a.owner : a.ptr;
  const nPtr = sz === 'none' ? z.owner : z.ptr;
  if (
    (id === 'additional-properties' || id === 'unevaluated-properties') &&
    sa !== 'schema' &&
    sz !== 'schema'
  ) {
    // Closing an object to undeclared properties: like removing a property a sender might still
    // send (WARN), and for receivers like a new optional property when opened (INFO).
    const closed = sz === 'false';
    report(
      st,
      `${id}-${closed ? 'closed' : 'opened'}`,
      closed && st.side.polarity === 'in' ? 'WARN' : 'INFO',
      `undeclared properties ${closed ? 'no longer allowed' : 'now allowed'}`,
      oPtr,
      nPtr,
      name,
    );
    return;
  }
  // none < schema < false, from loosest to tightest.
  const rank = { none: 0, schema: 1, false: 2 } as const;
  const tighter = rank[sz] > rank[sa];
  const shown = (s: Slot) => JSON.stringify(s.v === false ? false : 'schema');
  const how =
    sa === 'none' ? 'added' : sz === 'none' ? 'removed' : tighter ? 'tightened' : 'loosened';
  const what = how === 'added' || how === 'removed' ? how : `${shown(a)} → ${shown(z)}`;
  report(
    st,
    `${id}-${how}`,
    rate(st.side, tighter),
    `${id.replace(/-/g, ' ')} ${what}`,
    oPtr,
    nPtr,
    name,
  );
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
    const entry = (v: View, m: Record<string, unknown>, k: string): Slot => ({
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
  if (!opi && !npi) return;
  const len = Math.max(opi?.length ?? 0, npi?.length ?? 0);
  for (let i = 0; i < len; i++) {
    const position = (v: View, pi: unknown[] | undefined): Slot =>
      pi && i < pi.length
        ? { v: pi[i], ptr: join(v.ptr, 'prefixItems', i), owner: v.ptr }
        : slot(v, 'items');
    diffSlot(st, 'prefix-items', position(ov, opi), position(nv, npi), `${name}[${i}]`);
  }
}

/**
 * if/then/else: the condition itself changing may go either way. An `if` added or removed is
 * only meaningful with then/else, which are compared as constraints of their own.
 */
function diffIf(st: Step): void {
  const { ctx, ov, nv } = st;
  if (ov.s.if === undefined || nv.s.if === undefined) return;
  if (fingerprint(ctx.oldDoc, ov.s.if) !== fingerprint(ctx.newDoc, nv.s.if))
    // Values on one side of the old condition now meet the other branch's constraints.
    report(
      st,
      'if-changed',
      'ERR',
      'the `if` condition changed',
      join(ov.ptr, 'if'),
      join(nv.ptr, 'if'),
    );
}

/** `not`: a change inside inverts its meaning, so it is judged with the polarity flipped. */
function diffNot(st: Step): void {
  const { ctx, side, ov, nv } = st;
  const onot = ov.s.not;
  const nnot = nv.s.not;
  if (onot === undefined && nnot === undefined) return;
  if (fingerprint(ctx.oldDoc, onot) === fingerprint(ctx.newDoc, nnot)) return;
  const [oPtr, nPtr] = [at(ov, 'not', onot !== undefined), at(nv, 'not', nnot !== undefined)];
  if (onot === undefined || nnot === undefined) {
    const how = onot === undefined ? 'added' : 'removed';
    report(st, `not-${how}`, rate(side, onot === undefined), `\`not\` ${how}`, oPtr, nPtr);
    return;
  }
  const flipped: Side = { ...side, polarity: side.polarity === 'in' ? 'out' : 'in' };
  const breaks = trialErrs(st, flipped, onot, oPtr, nnot, nPtr) > 0;
  const why =
    side.polarity === 'in'
      ? ' so that values accepted before are now excluded'
      : ' so that values excluded before may now arrive';
  report(
    st,
    breaks ? 'not-changed' : 'not-changed-compatible',
    breaks ? 'ERR' : 'INFO',
    `\`not\` changed${breaks ? why : ''}`,
    oPtr,
    nPtr,
  );
}
