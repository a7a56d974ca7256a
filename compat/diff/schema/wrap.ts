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

/** Compares a wrapped or unwrapped pair; false (nothing done) for any other pair. */
export function diffWrapped(st: Step): boolean {
  const oc = compositionOf(st.ov.s);
  const nc = compositionOf(st.nv.s);
  if (!oc && nc && isWrapper(st.nv.s)) wrapped(st, nc, true);
  else if (oc && !nc && isWrapper(st.ov.s)) wrapped(st, oc, false);
  else return false;
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
