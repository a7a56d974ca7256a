/**
 * A schema wrapped in (or unwrapped from) a bare `oneOf`/`anyOf`: the single schema is compared
 * with the branches. What a sender could send before must still be accepted (by exactly one
 * branch, for `oneOf`); what a receiver may get now must fit what it got before.
 */
import { join } from '../pointer.ts';
import { isObj, type Obj, resolve } from '../walk-context.ts';
import { ANNOTATION_KEYS } from './canonical.ts';
import { compare, type Pair, type Ptrs, report, type Step, trialErrs } from './step.ts';
import { typeSet } from './type.ts';

/** Annotation and composition keys that leave a `oneOf`/`anyOf` "pure" (a wrapper). */
const WRAPPER_KEYS = new Set([
  ...ANNOTATION_KEYS,
  'oneOf',
  'anyOf',
  'discriminator',
  'readOnly',
  'writeOnly',
  'deprecated',
  'default',
  'nullable',
]);

function compositionOf(s: Obj): 'oneOf' | 'anyOf' | undefined {
  if (Array.isArray(s.oneOf)) return 'oneOf';
  if (Array.isArray(s.anyOf)) return 'anyOf';
  return undefined;
}

function isWrapper(s: Obj): boolean {
  return Object.keys(s).every((k) => WRAPPER_KEYS.has(k) || k.startsWith('x-'));
}

/**
 * A bare `oneOf`/`anyOf` whose branches lead, through `$ref`s and further bare compositions,
 * only back to themselves: a cycle with no schema at its end, so no concrete type at all.
 */
export function pureCycle(doc: unknown, s: Obj, ptr: string): boolean {
  const seen = new Set<string>();
  const leadsNowhere = (node: unknown, at: string): boolean => {
    const r = resolve(doc, node, at);
    if (seen.has(r.ptr)) return true;
    seen.add(r.ptr);
    if (!isObj(r.node)) return false;
    const kw = compositionOf(r.node);
    if (!kw || !isWrapper(r.node)) return false;
    const branches = r.node[kw] as unknown[];
    return branches.length > 0 && branches.every((b, i) => leadsNowhere(b, join(r.ptr, kw, i)));
  };
  return leadsNowhere(s, ptr);
}

/** Compares a wrapped or unwrapped pair; false (nothing done) for any other pair. */
export function diffWrapped(st: Step): boolean {
  const oc = compositionOf(st.ov.s);
  const nc = compositionOf(st.nv.s);
  if (!oc && nc && isWrapper(st.nv.s)) {
    if (!lostType(st, nc, true)) wrapped(st, nc, true);
  } else if (oc && !nc && isWrapper(st.ov.s)) {
    if (!lostType(st, oc, false)) wrapped(st, oc, false);
  } else return false;
  return true;
}

/**
 * A typed schema that became (or came from) a composition cycle with no schema at its end lost
 * (or gained) its only concrete type: a type change, whichever way values travel — what a
 * client may send or get is no longer described by any type (oasdiff: `…-type-changed`).
 */
function lostType(st: Step, kw: 'oneOf' | 'anyOf', wrap: boolean): boolean {
  const { ctx, ov, nv } = st;
  const [single, multi, doc] = wrap ? [ov, nv, ctx.newDoc] : [nv, ov, ctx.oldDoc];
  const types = typeSet(single.s, ctx.param);
  if (!types || !pureCycle(doc, multi.s, multi.ptr)) return false;
  const typed = [...types].join('|');
  const none = `none (a \`${kw}\` \`$ref\` cycle with no schema at its end)`;
  const [from, to] = wrap ? [typed, none] : [none, typed];
  // The whole typed schema is what was lost (or gained): its type, properties, everything.
  const ptrs: Ptrs = wrap ? [ov.ptr, join(nv.ptr, kw)] : [join(ov.ptr, kw), nv.ptr];
  report(st, 'type-changed', `type changed from ${from} to ${to}`, ptrs);
  return true;
}

function wrapped(st: Step, kw: 'oneOf' | 'anyOf', wrap: boolean): void {
  const { ctx, side, ov, nv } = st;
  const [single, multi] = wrap ? [ov, nv] : [nv, ov];
  const many = multi.s[kw] as unknown[];
  const ptrs: Ptrs = wrap ? [ov.ptr, join(nv.ptr, kw)] : [join(ov.ptr, kw), nv.ptr];
  const message = wrap ? `now a \`${kw}\` of ${many.length} schemas` : `no longer a \`${kw}\``;
  report(st, `composition-${wrap ? 'wrapped' : 'unwrapped'}`, message, ptrs);
  const branchPtr = (i: number) => join(multi.ptr, kw, i);
  const pair = (i: number): Pair =>
    wrap
      ? [single.s, single.ptr, many[i], branchPtr(i)]
      : [many[i], branchPtr(i), single.s, single.ptr];
  // The side on which every value must land in one branch: the sender's old values when a
  // request is wrapped, the receiver's new values when a response is unwrapped.
  const mustFit = wrap === (side.polarity === 'in');
  if (!mustFit) {
    // Every branch is a shape that may now be sent to the receiver (or was accepted before).
    for (let i = 0; i < many.length; i++) compare(st, pair(i));
    return;
  }
  const errs = many.map((_, i) => trialErrs(st, side, pair(i)));
  const fitting = errs.flatMap((e, i) => (e === 0 ? [i] : []));
  if (kw === 'oneOf' && fitting.length >= 2) {
    report(
      st,
      'one-of-ambiguous',
      `values valid before now match ${fitting.length} \`oneOf\` branches (#${fitting.join(', #')}) and so fail \`oneOf\``,
      ptrs,
    );
    return;
  }
  if (fitting.length >= 1) {
    compare(st, pair(fitting[0]!));
    return;
  }
  // No branch takes everything: report against the closest one, preferring one of the same type.
  const types = typeSet(single.s, ctx.param);
  const score = (i: number) => {
    const b = resolve(wrap ? ctx.newDoc : ctx.oldDoc, many[i], branchPtr(i)).node;
    const bt = isObj(b) ? typeSet(b, ctx.param) : undefined;
    const overlap = !types || !bt || [...bt].some((t) => types.has(t));
    return errs[i]! * 10 + (overlap ? 0 : 5);
  };
  const best = many.map((_, i) => i).sort((x, y) => score(x) - score(y))[0];
  if (best !== undefined) compare(st, pair(best));
}
