import { join } from './pointer.ts';
import type { Level } from './types.ts';
import { type Ctx, emit, enter, isObj, resolve, type Side } from './walk-context.ts';

type Obj = Record<string, unknown>;

/** Level of a change that narrows (`tighter`) or widens what is allowed, for each polarity. */
function rate(side: Side, tighter: boolean): Level {
  // Narrowing hurts whoever sends; widening hurts whoever receives.
  return (side.polarity === 'in') === tighter ? 'ERR' : 'INFO';
}

interface PropRef {
  raw: unknown;
  ptr: string;
}

/** A schema with `allOf` folded in, so moving a property into an `allOf` part is not a change. */
interface View {
  s: Obj;
  ptr: string;
  props: Map<string, PropRef>;
  required: Set<string>;
}

function view(doc: unknown, node: unknown, ptr: string, depth = 0): View {
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

function typeSet(s: Obj): Set<string> | undefined {
  let types: string[] | undefined;
  if (typeof s.type === 'string') types = [s.type];
  else if (Array.isArray(s.type)) types = s.type.map(String);
  if (!types) return undefined;
  if (s.nullable === true) types.push('null');
  return new Set(types);
}

/** Every type in `b` is allowed by `a` (an integer is a number). */
function covers(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (!a) return true;
  if (!b) return false;
  for (const t of b) if (!a.has(t) && !(t === 'integer' && a.has('number'))) return false;
  return true;
}

const ANNOTATION_KEYS = new Set(['description', 'title', 'example', 'examples', '$comment']);

/** A comparable fingerprint of a schema: refs inlined, annotations and extensions dropped. */
export function canonical(doc: unknown, node: unknown, depth = 0, seen: string[] = []): unknown {
  if (depth > 32) return '…';
  if (Array.isArray(node)) return node.map((x) => canonical(doc, x, depth + 1, seen));
  if (!isObj(node)) return node;
  if (typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) return { $cycle: node.$ref };
    const r = resolve(doc, node, '');
    return canonical(doc, r.node, depth + 1, [...seen, node.$ref]);
  }
  const out: Obj = {};
  for (const k of Object.keys(node).sort()) {
    if (ANNOTATION_KEYS.has(k) || k.startsWith('x-')) continue;
    out[k] = canonical(doc, node[k], depth + 1, seen);
  }
  return out;
}

function enumValues(s: Obj): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ('const' in s) return [s.const];
  return undefined;
}

/** Bound keywords grouped by the rule they raise; `max` means a lower value is tighter. */
const BOUNDS: { key: string; group: string; max: boolean }[] = [
  { key: 'maxLength', group: 'length', max: true },
  { key: 'minLength', group: 'length', max: false },
  { key: 'maximum', group: 'range', max: true },
  { key: 'exclusiveMaximum', group: 'range', max: true },
  { key: 'minimum', group: 'range', max: false },
  { key: 'exclusiveMinimum', group: 'range', max: false },
  { key: 'maxItems', group: 'items', max: true },
  { key: 'minItems', group: 'items', max: false },
];

function label(path: string): string {
  return path === '' ? 'the schema' : `\`${path}\``;
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
  const p = side.prefix;

  // Types.
  const ot = typeSet(ov.s);
  const nt = typeSet(nv.s);
  const widened = !covers(ot, nt);
  const narrowed = !covers(nt, ot);
  const typePtrO = ot ? join(ov.ptr, 'type') : ov.ptr;
  const typePtrN = nt ? join(nv.ptr, 'type') : nv.ptr;
  const show = (t: Set<string> | undefined) => (t ? [...t].join('|') : 'any');
  if (widened && narrowed) {
    emit(
      ctx,
      `${p}-type-changed`,
      'ERR',
      `${label(name)}: type changed from ${show(ot)} to ${show(nt)}`,
      typePtrO,
      typePtrN,
    );
  } else if (widened || narrowed) {
    emit(
      ctx,
      `${p}-type-${widened ? 'widened' : 'narrowed'}`,
      rate(side, narrowed),
      `${label(name)}: type ${widened ? 'widened' : 'narrowed'} from ${show(ot)} to ${show(nt)}`,
      typePtrO,
      typePtrN,
    );
  }

  // Enums.
  const oe = enumValues(ov.s);
  const ne = enumValues(nv.s);
  const enumPtr = (v: View, e: unknown[] | undefined) =>
    e ? join(v.ptr, Array.isArray(v.s.enum) ? 'enum' : 'const') : v.ptr;
  if (oe && ne) {
    const os = new Set(oe.map((x) => JSON.stringify(x)));
    const ns = new Set(ne.map((x) => JSON.stringify(x)));
    const added = [...ns].filter((x) => !os.has(x));
    const removed = [...os].filter((x) => !ns.has(x));
    if (added.length > 0)
      emit(
        ctx,
        `${p}-enum-value-added`,
        rate(side, false),
        `${label(name)}: enum value(s) added: ${added.join(', ')}`,
        enumPtr(ov, oe),
        enumPtr(nv, ne),
      );
    if (removed.length > 0)
      emit(
        ctx,
        `${p}-enum-value-removed`,
        rate(side, true),
        `${label(name)}: enum value(s) removed: ${removed.join(', ')}`,
        enumPtr(ov, oe),
        enumPtr(nv, ne),
      );
  } else if (oe || ne) {
    emit(
      ctx,
      `${p}-enum-${ne ? 'restricted' : 'unrestricted'}`,
      rate(side, Boolean(ne)),
      `${label(name)}: ${ne ? 'now limited to' : 'no longer limited to'} ${JSON.stringify(ne ?? oe)}`,
      enumPtr(ov, oe),
      enumPtr(nv, ne),
    );
  }

  // Bounds.
  for (const b of BOUNDS) {
    const a = ov.s[b.key];
    const z = nv.s[b.key];
    if (typeof a !== 'number' && typeof z !== 'number') continue;
    if (a === z) continue;
    const none = b.max ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const av = typeof a === 'number' ? a : none;
    const zv = typeof z === 'number' ? z : none;
    const tighter = b.max ? zv < av : zv > av;
    emit(
      ctx,
      `${p}-${b.group}-${tighter ? 'tightened' : 'loosened'}`,
      rate(side, tighter),
      `${label(name)}: ${b.key} ${a ?? 'unset'} → ${z ?? 'unset'}`,
      typeof a === 'number' ? join(ov.ptr, b.key) : ov.ptr,
      typeof z === 'number' ? join(nv.ptr, b.key) : nv.ptr,
    );
  }
  if (ov.s.uniqueItems !== nv.s.uniqueItems && (ov.s.uniqueItems || nv.s.uniqueItems)) {
    const tighter = nv.s.uniqueItems === true;
    emit(
      ctx,
      `${p}-items-${tighter ? 'tightened' : 'loosened'}`,
      rate(side, tighter),
      `${label(name)}: uniqueItems ${ov.s.uniqueItems ?? 'unset'} → ${nv.s.uniqueItems ?? 'unset'}`,
      'uniqueItems' in ov.s ? join(ov.ptr, 'uniqueItems') : ov.ptr,
      'uniqueItems' in nv.s ? join(nv.ptr, 'uniqueItems') : nv.ptr,
    );
  }
  if (ov.s.pattern !== nv.s.pattern) {
    // Whether one regex accepts more than another is undecidable in general: flag it for a human.
    emit(
      ctx,
      `${p}-pattern-changed`,
      'WARN',
      `${label(name)}: pattern ${JSON.stringify(ov.s.pattern ?? null)} → ${JSON.stringify(nv.s.pattern ?? null)}`,
      'pattern' in ov.s ? join(ov.ptr, 'pattern') : ov.ptr,
      'pattern' in nv.s ? join(nv.ptr, 'pattern') : nv.ptr,
    );
  }

  // Properties.
  const sub = (k: string) => (path === '' ? (name === '' ? k : `${name}.${k}`) : `${path}.${k}`);
  for (const [k, op] of ov.props) {
    const np = nv.props.get(k);
    const wasReq = ov.required.has(k);
    if (!np) {
      const e = enter(ctx, op.raw, op.ptr, undefined, undefined);
      if (side.polarity === 'out')
        emit(
          e.ctx,
          `${p}-${wasReq ? 'property-removed' : 'optional-property-removed'}`,
          wasReq ? 'ERR' : 'WARN',
          `${label(sub(k))}: ${wasReq ? 'required' : 'optional'} property removed`,
          op.ptr,
          nv.ptr,
        );
      // Clients still sending it may now be rejected (or have it silently ignored).
      else
        emit(
          e.ctx,
          `${p}-property-removed`,
          'WARN',
          `${label(sub(k))}: property removed`,
          op.ptr,
          nv.ptr,
        );
      continue;
    }
    const isReq = nv.required.has(k);
    if (wasReq !== isReq) {
      const e = enter(ctx, op.raw, op.ptr, np.raw, np.ptr);
      emit(
        e.ctx,
        `${p}-property-became-${isReq ? 'required' : 'optional'}`,
        rate(side, isReq),
        `${label(sub(k))}: became ${isReq ? 'required' : 'optional'}`,
        op.ptr,
        np.ptr,
      );
    }
    diffSchema(ctx, side, op.raw, op.ptr, np.raw, np.ptr, sub(k));
  }
  for (const [k, np] of nv.props) {
    if (ov.props.has(k)) continue;
    const isReq = nv.required.has(k);
    const e = enter(ctx, undefined, undefined, np.raw, np.ptr);
    const breaking = side.polarity === 'in' && isReq;
    emit(
      e.ctx,
      `${p}-${breaking ? 'required-property-added' : 'property-added'}`,
      breaking ? 'ERR' : 'INFO',
      `${label(sub(k))}: ${isReq ? 'required' : 'optional'} property added`,
      ov.ptr,
      np.ptr,
    );
  }

  // Array items and free-form maps.
  for (const kw of ['items', 'additionalProperties'] as const) {
    if (isObj(ov.s[kw]) && isObj(nv.s[kw]))
      diffSchema(ctx, side, ov.s[kw], join(ov.ptr, kw), nv.s[kw], join(nv.ptr, kw), `${name}[]`);
  }

  // Composition branches.
  for (const kw of ['oneOf', 'anyOf'] as const) {
    diffBranches(ctx, side, ov, nv, kw, name);
  }
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
  if (oLeft.length === nLeft.length) {
    oLeft.forEach((a, i) => {
      const z = nLeft[i]!;
      diffSchema(ctx, side, a.b, join(ov.ptr, kw, a.i), z.b, join(nv.ptr, kw, z.i), name);
    });
    return;
  }
  const p = side.prefix;
  for (const a of oLeft)
    emit(
      ctx,
      `${p}-branch-removed`,
      rate(side, true),
      `${label(name)}: ${kw} branch #${a.i} removed`,
      join(ov.ptr, kw, a.i),
      nb ? join(nv.ptr, kw) : nv.ptr,
    );
  for (const z of nLeft)
    emit(
      ctx,
      `${p}-branch-added`,
      rate(side, false),
      `${label(name)}: ${kw} branch #${z.i} added`,
      ob ? join(ov.ptr, kw) : ov.ptr,
      join(nv.ptr, kw, z.i),
    );
}
