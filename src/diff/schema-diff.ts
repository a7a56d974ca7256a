import { get, join } from './pointer.ts';
import type { Level } from './types.ts';
import {
  type Ctx,
  emit,
  enter,
  isObj,
  type Obj,
  resolve,
  type Side,
  Sink,
} from './walk-context.ts';
import { ANNOTATION_KEYS, canonical } from './schema/canonical.ts';
import { diffBounds, diffContentEncoding, diffDefault, diffPattern } from './schema/constraints.ts';
import { diffEnum } from './schema/enum.ts';
import { diffDependentRequired, diffProperties } from './schema/properties.ts';
import { diffSubSchemas } from './schema/sub-schemas.ts';
import type { Step } from './schema/step.ts';
import { diffType, typeSet } from './schema/type.ts';
import { type View, view } from './schema/view.ts';

/** Level of a change that narrows (`tighter`) or widens what is allowed, for each polarity. */
function rate(side: Side, tighter: boolean): Level {
  // Narrowing hurts whoever sends; widening hurts whoever receives.
  return (side.polarity === 'in') === tighter ? 'ERR' : 'INFO';
}

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

/** ERR findings a comparison would raise, counted on a scratch sink (nothing is reported). */
function trialErrs(
  ctx: Ctx,
  side: Side,
  o: unknown,
  oPtr: string,
  n: unknown,
  nPtr: string,
): number {
  const key = `${side.prefix}|${side.polarity}|${ctx.param ? 1 : 0}|${oPtr}|${nPtr}`;
  const known = ctx.trials?.get(key);
  if (known !== undefined) return known;
  const sink = new Sink();
  diffSchema({ ...ctx, sink, visited: new Set(), levels: undefined }, side, o, oPtr, n, nPtr, '');
  let errs = 0;
  for (const f of sink.byKey.values()) if (f.level === 'ERR') errs++;
  ctx.trials?.set(key, errs);
  return errs;
}

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function label(path: string): string {
  return path === '' ? 'the schema' : `\`${path}\``;
}

/**
 * `diffSchema` for a schema at the top of a message part (a parameter, a body, a header). The
 * result depends only on the pair and the place, not on the operation, so it is computed once
 * (with its own cycle guard, so it is complete) and replayed for every other operation reaching
 * the same pair with that operation's `where`.
 */
export function diffSchemaAt(
  ctx: Ctx,
  side: Side,
  oldNode: unknown,
  oldPtr: string,
  newNode: unknown,
  newPtr: string,
  path: string,
): void {
  const memo = ctx.memo;
  // Only a pair of referenced components is shared between operations; an inline schema is not.
  const ro = resolve(ctx.oldDoc, oldNode, oldPtr);
  const rn = resolve(ctx.newDoc, newNode, newPtr);
  const shared =
    ro.ptr !== oldPtr &&
    rn.ptr !== newPtr &&
    ro.node === get(ctx.oldDoc, ro.ptr) &&
    rn.node === get(ctx.newDoc, rn.ptr);
  if (!memo || !shared) {
    diffSchema(ctx, side, oldNode, oldPtr, newNode, newPtr, path);
    return;
  }
  const key = `${side.prefix}|${ctx.param ? 1 : 0}${ctx.pathParam ? 1 : 0}|${path}|${ro.ptr}|${rn.ptr}`;
  let found = memo.get(key);
  if (!found) {
    const sink = new Sink();
    diffSchema({ ...ctx, sink, visited: new Set() }, side, oldNode, oldPtr, newNode, newPtr, path);
    found = [...sink.byKey.values()].map((f) => ({ ...f, where: [] }));
    memo.set(key, found);
  }
  for (const f of found) ctx.sink.add({ ...f, where: [ctx.where] });
}

/**
 * Compares two schemas that sit at the same place of an exchange and emits what a client
 * would notice. `path` is a readable property path used in messages only.
 */
export function diffSchema(
  parent: Ctx,
  side: Side,
  oldNode: unknown,
  oldPtr: string,
  newNode: unknown,
  newPtr: string,
  path: string,
): void {
  const { ctx, o, n } = enter(parent, oldNode, oldPtr, newNode, newPtr);
  if (!o || !n) return;
  const key = `${side.prefix}|${o.ptr}|${n.ptr}`;
  if (ctx.visited.has(key)) return;
  ctx.visited.add(key);
  const name = path === '' && n.refName ? n.refName : path;
  const ov = view(ctx.oldDoc, o.node, o.ptr);
  const nv = view(ctx.newDoc, n.node, n.ptr);

  // A schema wrapped in (or unwrapped from) a bare oneOf/anyOf: compare it with the branches.
  const oc = compositionOf(ov.s);
  const nc = compositionOf(nv.s);
  if (!oc && nc && isWrapper(nv.s)) {
    wrapped(ctx, side, ov, nv, nc, name, 'wrap');
    return;
  }
  if (oc && !nc && isWrapper(ov.s)) {
    wrapped(ctx, side, ov, nv, oc, name, 'unwrap');
    return;
  }

  const st: Step = { ctx, side, ov, nv, name, diff: diffSchema };
  diffType(st);
  diffEnum(st);
  diffBounds(st);
  diffPattern(st);
  diffContentEncoding(st);
  diffDefault(st);
  diffDependentRequired(st);
  diffProperties(st);
  diffSubSchemas(st);
  diffDiscriminator(ctx, side, ov, nv, name);

  // Composition branches.
  for (const kw of ['oneOf', 'anyOf'] as const) {
    diffBranches(ctx, side, ov, nv, kw, name);
  }
}

/**
 * The discriminator is how both sides tell branches apart: a renamed property or mapping value
 * means one side sends a value the other cannot place. Adding one is only a hint.
 */
function diffDiscriminator(ctx: Ctx, side: Side, ov: View, nv: View, name: string): void {
  const od = isObj(ov.s.discriminator) ? ov.s.discriminator : undefined;
  const nd = isObj(nv.s.discriminator) ? nv.s.discriminator : undefined;
  if (!od || !nd) return;
  const p = side.prefix;
  const oPtr = join(ov.ptr, 'discriminator');
  const nPtr = join(nv.ptr, 'discriminator');
  if (od.propertyName !== nd.propertyName)
    emit(
      ctx,
      `${p}-discriminator-property-changed`,
      'ERR',
      `${label(name)}: discriminator property ${JSON.stringify(od.propertyName)} → ${JSON.stringify(nd.propertyName)}`,
      join(oPtr, 'propertyName'),
      join(nPtr, 'propertyName'),
    );
  const om = isObj(od.mapping) ? od.mapping : {};
  const nm = isObj(nd.mapping) ? nd.mapping : {};
  const target = (doc: unknown, ref: unknown) =>
    typeof ref === 'string' ? JSON.stringify(canonical(doc, { $ref: ref })) : '';
  const removed = Object.keys(om).filter((k) => !(k in nm));
  const added = Object.keys(nm).filter((k) => !(k in om));
  const moved = Object.keys(om).filter(
    // Same reference: any change inside that schema is reported where it is compared.
    (k) => k in nm && om[k] !== nm[k] && target(ctx.oldDoc, om[k]) !== target(ctx.newDoc, nm[k]),
  );
  const mPtr = (ptr: string, d: Obj) => ('mapping' in d ? join(ptr, 'mapping') : ptr);
  if (removed.length > 0)
    emit(
      ctx,
      `${p}-discriminator-value-removed`,
      rate(side, true),
      `${label(name)}: discriminator value(s) removed: ${removed.join(', ')}`,
      mPtr(oPtr, od),
      mPtr(nPtr, nd),
    );
  if (added.length > 0)
    emit(
      ctx,
      `${p}-discriminator-value-added`,
      rate(side, false),
      `${label(name)}: discriminator value(s) added: ${added.join(', ')}`,
      mPtr(oPtr, od),
      mPtr(nPtr, nd),
    );
  if (moved.length > 0)
    emit(
      ctx,
      `${p}-discriminator-mapping-changed`,
      'ERR',
      `${label(name)}: discriminator value(s) now map to a different schema: ${moved.join(', ')}`,
      mPtr(oPtr, od),
      mPtr(nPtr, nd),
    );
}

/**
 * One side is a bare `oneOf`/`anyOf` around schemas, the other a single schema. What a sender
 * could send before must still be accepted (by exactly one branch, for `oneOf`); what a receiver
 * may get now must fit what it got before.
 */
function wrapped(
  ctx: Ctx,
  side: Side,
  ov: View,
  nv: View,
  kw: 'oneOf' | 'anyOf',
  name: string,
  how: 'wrap' | 'unwrap',
): void {
  const p = side.prefix;
  const many = (how === 'wrap' ? nv : ov).s[kw] as unknown[];
  emit(
    ctx,
    `${p}-composition-${how === 'wrap' ? 'wrapped' : 'unwrapped'}`,
    'INFO',
    `${label(name)}: ${how === 'wrap' ? `now a \`${kw}\` of ${many.length} schemas` : `no longer a \`${kw}\``}`,
    how === 'wrap' ? ov.ptr : join(ov.ptr, kw),
    how === 'wrap' ? join(nv.ptr, kw) : nv.ptr,
  );
  const branchPtr = (i: number) => join((how === 'wrap' ? nv : ov).ptr, kw, i);
  const single = how === 'wrap' ? ov : nv;
  // The side on which every value must land in one branch: the sender's old values when a
  // request is wrapped, the receiver's new values when a response is unwrapped.
  const mustFit = (how === 'wrap') === (side.polarity === 'in');
  const cmp = (i: number, real: boolean): number => {
    const [a, aPtr, z, zPtr] =
      how === 'wrap'
        ? [single.s, single.ptr, many[i], branchPtr(i)]
        : [many[i], branchPtr(i), single.s, single.ptr];
    if (real) {
      diffSchema(ctx, side, a, aPtr, z, zPtr, name);
      return 0;
    }
    return trialErrs(ctx, side, a, aPtr, z, zPtr);
  };
  if (!mustFit) {
    // Every branch is a shape that may now be sent to the receiver (or was accepted before).
    for (let i = 0; i < many.length; i++) cmp(i, true);
    return;
  }
  const errs = many.map((_, i) => cmp(i, false));
  const fitting = errs.flatMap((e, i) => (e === 0 ? [i] : []));
  if (kw === 'oneOf' && fitting.length >= 2) {
    emit(
      ctx,
      `${p}-one-of-ambiguous`,
      'ERR',
      `${label(name)}: values valid before now match ${fitting.length} \`oneOf\` branches (#${fitting.join(', #')}) and so fail \`oneOf\``,
      how === 'wrap' ? single.ptr : join(ov.ptr, kw),
      how === 'wrap' ? join(nv.ptr, kw) : single.ptr,
    );
    return;
  }
  if (fitting.length >= 1) {
    cmp(fitting[0]!, true);
    return;
  }
  // No branch takes everything: report against the closest one, preferring one of the same type.
  const st = typeSet(single.s, ctx.param);
  const score = (i: number) => {
    const b = resolve(how === 'wrap' ? ctx.newDoc : ctx.oldDoc, many[i], branchPtr(i)).node;
    const bt = isObj(b) ? typeSet(b, ctx.param) : undefined;
    const overlap = !st || !bt || [...bt].some((t) => st.has(t));
    return errs[i]! * 10 + (overlap ? 0 : 5);
  };
  const best = many.map((_, i) => i).sort((x, y) => score(x) - score(y))[0];
  if (best !== undefined) cmp(best, true);
}

function diffBranches(ctx: Ctx, side: Side, ov: View, nv: View, kw: string, name: string): void {
  const ob = Array.isArray(ov.s[kw]) ? (ov.s[kw] as unknown[]) : undefined;
  const nb = Array.isArray(nv.s[kw]) ? (nv.s[kw] as unknown[]) : undefined;
  if (!ob && !nb) return;
  const fp = (doc: unknown, b: unknown) => JSON.stringify(canonical(doc, b));
  const oLeft = (ob ?? []).map((b, i) => ({ b, i, f: fp(ctx.oldDoc, b) }));
  const nLeft = (nb ?? []).map((b, i) => ({ b, i, f: fp(ctx.newDoc, b) }));
  // Identical branches pair up wherever they moved to: reordering is not a change.
  for (let i = oLeft.length - 1; i >= 0; i--) {
    const j = nLeft.findIndex((x) => x.f === oLeft[i]!.f);
    if (j >= 0) {
      oLeft.splice(i, 1);
      nLeft.splice(j, 1);
    }
  }
  // Same `$ref` target on both sides, or a one-for-one swap: an edited branch, compared deeply.
  const refOf = (b: unknown) => (isObj(b) && typeof b.$ref === 'string' ? b.$ref : undefined);
  for (let i = oLeft.length - 1; i >= 0; i--) {
    const r = refOf(oLeft[i]!.b);
    const j = r ? nLeft.findIndex((x) => refOf(x.b) === r) : -1;
    if (j >= 0) {
      const a = oLeft.splice(i, 1)[0]!;
      const z = nLeft.splice(j, 1)[0]!;
      diffSchema(ctx, side, a.b, join(ov.ptr, kw, a.i), z.b, join(nv.ptr, kw, z.i), name);
    }
  }
  const p = side.prefix;
  if (!ob || !nb) {
    // A composition added to (or removed from) a schema that keeps its own constraints:
    // a conjunct. Adding one can only narrow; what matters is whether old values still pass.
    const adding = !ob;
    const mustFit = adding === (side.polarity === 'in');
    if (!mustFit) return;
    const branches = (adding ? nb : ob)!;
    const basePtr = adding ? nv.ptr : ov.ptr;
    const fit = branches.filter((b, i) =>
      adding
        ? trialErrs(ctx, side, ov.s, ov.ptr, b, join(basePtr, kw, i)) === 0
        : trialErrs(ctx, side, b, join(basePtr, kw, i), nv.s, nv.ptr) === 0,
    ).length;
    if (fit === 0 || (kw === 'oneOf' && fit >= 2))
      emit(
        ctx,
        fit === 0 ? `${p}-${kebab(kw)}-${adding ? 'added' : 'removed'}` : `${p}-one-of-ambiguous`,
        'ERR',
        fit === 0
          ? `${label(name)}: \`${kw}\` ${adding ? 'added' : 'removed'}; values valid before match none of its branches`
          : `${label(name)}: values valid before now match ${fit} \`oneOf\` branches and so fail \`oneOf\``,
        adding ? ov.ptr : join(ov.ptr, kw),
        adding ? join(nv.ptr, kw) : nv.ptr,
      );
    return;
  }
  // Branches with no identical partner: a sender's old branch must still be accepted by some
  // new branch; a receiver's new branch must fit some old one. Structure, not names, decides.
  const fitsSome = (a: { b: unknown; i: number }, others: unknown[], oldSide: boolean) =>
    others.some((z, j) =>
      oldSide
        ? trialErrs(ctx, side, a.b, join(ov.ptr, kw, a.i), z, join(nv.ptr, kw, j)) === 0
        : trialErrs(ctx, side, z, join(ov.ptr, kw, j), a.b, join(nv.ptr, kw, a.i)) === 0,
    );
  const oBad =
    side.polarity === 'in' ? oLeft.filter((a) => !fitsSome(a, nb, true)) : ([] as typeof oLeft);
  const nBad =
    side.polarity === 'out' ? nLeft.filter((z) => !fitsSome(z, ob, false)) : ([] as typeof nLeft);
  if (oLeft.length === nLeft.length) {
    // One-for-one edits: compared in place so the report names what changed.
    oLeft.forEach((a, i) => {
      const z = nLeft[i]!;
      if (oBad.includes(a) || nBad.includes(z))
        diffSchema(ctx, side, a.b, join(ov.ptr, kw, a.i), z.b, join(nv.ptr, kw, z.i), name);
    });
    return;
  }
  for (const a of oLeft)
    emit(
      ctx,
      side.polarity === 'in' && !oBad.includes(a)
        ? `${p}-branch-removed-covered`
        : `${p}-branch-removed`,
      oBad.includes(a) ? 'ERR' : 'INFO',
      `${label(name)}: ${kw} branch #${a.i} removed`,
      join(ov.ptr, kw, a.i),
      nb ? join(nv.ptr, kw) : nv.ptr,
    );
  for (const z of nLeft)
    emit(
      ctx,
      side.polarity === 'out' && !nBad.includes(z)
        ? `${p}-branch-added-covered`
        : `${p}-branch-added`,
      nBad.includes(z) ? 'ERR' : 'INFO',
      `${label(name)}: ${kw} branch #${z.i} added`,
      ob ? join(ov.ptr, kw) : ov.ptr,
      join(nv.ptr, kw, z.i),
    );
}
