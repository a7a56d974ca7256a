import { get } from './pointer.ts';
import type { AssumedMark, Finding, Level } from './types.ts';

type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Innermost `x-provenance` seen on one side; unmarked elements inherit it (spec convention). */
export interface Provenance {
  value: string;
  pointer: string;
  gap?: string;
}

/**
 * Which way a value travels, seen from the client. `in`: the client sends it (API requests,
 * webhook acknowledgements), so narrowing what is accepted breaks. `out`: the client receives
 * it (API responses, webhook deliveries), so widening what may arrive breaks.
 */
export type Polarity = 'in' | 'out';

/** A place in an exchange; its `prefix` starts every rule id raised there. */
export interface Side {
  polarity: Polarity;
  /** `request` | `response` | `webhook` | `webhook-response`. */
  prefix: string;
}

/** Collects findings, merging the same change reached from several operations. */
export class Sink {
  readonly byKey = new Map<string, Finding>();

  add(f: Finding): void {
    const key = `${f.rule}|${f.old ?? ''}|${f.new ?? ''}`;
    const seen = this.byKey.get(key);
    if (!seen) {
      this.byKey.set(key, f);
      return;
    }
    for (const w of f.where) if (!seen.where.includes(w)) seen.where.push(w);
    if (!seen.assumed && f.assumed) seen.assumed = f.assumed;
  }
}

/** Walk state: immutable per step, so branches never leak marks into siblings. */
export interface Ctx {
  oldDoc: unknown;
  newDoc: unknown;
  sink: Sink;
  /** Human label of the operation plus the place inside it, for `Finding.where`. */
  where: string;
  oldProv?: Provenance;
  newProv?: Provenance;
  /** Per-operation guard against recursive schemas. */
  visited: Set<string>;
}

function markOf(node: unknown, pointer: string): Provenance | undefined {
  if (!isObj(node) || typeof node['x-provenance'] !== 'string') return undefined;
  const gap = typeof node['x-gap'] === 'string' ? (node['x-gap'] as string) : undefined;
  return { value: node['x-provenance'] as string, pointer, ...(gap ? { gap } : {}) };
}

export interface Resolved {
  node: unknown;
  ptr: string;
  /** Component name when the node came from a `$ref`, for readable messages. */
  refName?: string;
  prov?: Provenance;
}

/** Keywords next to a `$ref` that never change what a message may contain. */
const ANNOTATIONS = new Set(['$ref', 'description', 'summary', 'title', 'example', 'examples']);

/**
 * Follows local `$ref`s so an inline element and a referenced one compare equal, and records
 * the provenance mark seen on the way (the use site's mark wins over the definition's).
 */
export function resolve(
  doc: unknown,
  node: unknown,
  ptr: string,
  prov: Provenance | undefined,
): Resolved {
  let cur = node;
  let curPtr = ptr;
  let refName: string | undefined;
  const useSiteMark = markOf(node, ptr);
  let siblings: Obj = {};
  for (let hops = 0; hops < 32 && isObj(cur) && typeof cur.$ref === 'string'; hops++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#')) break; // remote refs are out of scope: compared as written
    for (const [k, v] of Object.entries(cur)) {
      if (!ANNOTATIONS.has(k) && !k.startsWith('x-') && !(k in siblings)) siblings[k] = v;
    }
    curPtr = decodeURIComponent(ref.slice(1));
    refName = curPtr.split('/').pop();
    cur = get(doc, ref);
  }
  const defMark = curPtr !== ptr ? markOf(cur, curPtr) : undefined;
  if (Object.keys(siblings).length > 0 && isObj(cur)) cur = { ...cur, ...siblings };
  else siblings = {};
  const nextProv = useSiteMark ?? defMark ?? prov;
  return {
    node: cur,
    ptr: curPtr,
    ...(refName ? { refName } : {}),
    ...(nextProv ? { prov: nextProv } : {}),
  };
}

/** Same as `resolve`, for a (possibly absent) node on both sides, updating the context. */
export function enter(
  ctx: Ctx,
  oldNode: unknown,
  oldPtr: string | undefined,
  newNode: unknown,
  newPtr: string | undefined,
): { ctx: Ctx; o?: Resolved; n?: Resolved } {
  const o = oldPtr !== undefined ? resolve(ctx.oldDoc, oldNode, oldPtr, ctx.oldProv) : undefined;
  const n = newPtr !== undefined ? resolve(ctx.newDoc, newNode, newPtr, ctx.newProv) : undefined;
  const next: Ctx = { ...ctx };
  const oldProv = o ? o.prov : ctx.oldProv;
  const newProv = n ? n.prov : ctx.newProv;
  if (oldProv) next.oldProv = oldProv;
  else delete next.oldProv;
  if (newProv) next.newProv = newProv;
  else delete next.newProv;
  return { ctx: next, ...(o ? { o } : {}), ...(n ? { n } : {}) };
}

function assumedMark(ctx: Ctx): AssumedMark | undefined {
  // The old side wins: the question is whether what clients relied on was a guess.
  for (const [version, p] of [
    ['old', ctx.oldProv],
    ['new', ctx.newProv],
  ] as const) {
    if (p?.value === 'assumed')
      return { pointer: p.pointer, version, ...(p.gap ? { gap: p.gap } : {}) };
  }
  return undefined;
}

export function emit(
  ctx: Ctx,
  rule: string,
  level: Level,
  message: string,
  oldPtr: string | undefined,
  newPtr: string | undefined,
): void {
  const assumed = assumedMark(ctx);
  ctx.sink.add({
    rule,
    level,
    message,
    ...(oldPtr !== undefined ? { old: oldPtr } : {}),
    ...(newPtr !== undefined ? { new: newPtr } : {}),
    where: [ctx.where],
    ...(assumed ? { assumed } : {}),
  });
}
