import { get } from './pointer.ts';
import { RULES } from './rules.ts';
import type { Level } from '../../core/level.ts';
import type { AssumedMark, Finding } from './types.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `v` when it is an object, else an empty one: an absent part compares like an empty one. */
export function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
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

const OPPOSITE: Record<string, string> = {
  request: 'response',
  response: 'request',
  webhook: 'webhook-response',
  'webhook-response': 'webhook',
};

/**
 * The place whose values travel the other way (what the inside of a `not` is judged as): the
 * prefix turns with the polarity, so the rule ids raised there name the direction rules.ts rates.
 */
export function opposite(side: Side): Side {
  return { polarity: side.polarity === 'in' ? 'out' : 'in', prefix: OPPOSITE[side.prefix]! };
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
  /** Per-operation guard against recursive schemas. */
  visited: Set<string>;
  /**
   * Inside a parameter's schema: the value travels as text in a URL or header, so `null` cannot
   * be sent and every number or boolean is also a valid string.
   */
  param?: boolean;
  /** Inside a path parameter: always sent, so a default never applies. */
  pathParam?: boolean;
  /** Team overrides of rule levels (`--level rule=WARN`), applied as findings are emitted. */
  levels?: Readonly<Record<string, Level>>;
  /**
   * Findings of a schema pair already compared from another operation (shared components are
   * reached from many): replayed with the new `where` instead of walked again.
   */
  memo?: Map<string, Finding[]>;
  /** ERR counts of trial comparisons (branch coverage), by pair and place. */
  trials?: Map<string, number>;
  /** Trials under way (shared by every nested context): a trial met again inside itself. */
  running?: Set<string>;
}

export interface Resolved {
  node: unknown;
  ptr: string;
  /** Component name when the node came from a `$ref`, for readable messages. */
  refName?: string;
}

/** Keywords next to a `$ref` that never change what a message may contain. */
const ANNOTATIONS = new Set(['$ref', 'description', 'summary', 'title', 'example', 'examples']);

/** Follows local `$ref`s so an inline element and a referenced one compare equal. */
export function resolve(doc: unknown, node: unknown, ptr: string): Resolved {
  let cur = node;
  let curPtr = ptr;
  let refName: string | undefined;
  const siblings: Obj = {};
  for (let hops = 0; hops < 32 && isObj(cur) && typeof cur.$ref === 'string'; hops++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#')) break; // remote refs are out of scope: compared as written
    for (const [k, v] of Object.entries(cur)) {
      if (!ANNOTATIONS.has(k) && !k.startsWith('x-') && !(k in siblings)) siblings[k] = v;
    }
    curPtr = decodeURIComponent(ref.slice(1));
    // The last name in the pointer, also for hoisted external refs (`/x-bundled/pet.yaml#~1Pet`).
    refName = curPtr.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~').split('/').pop();
    cur = get(doc, ref);
  }
  if (Object.keys(siblings).length > 0 && isObj(cur)) cur = { ...cur, ...siblings };
  return { node: cur, ptr: curPtr, ...(refName ? { refName } : {}) };
}

/** Same as `resolve`, for a (possibly absent) node on both sides. */
export function enter(
  ctx: Ctx,
  oldNode: unknown,
  oldPtr: string | undefined,
  newNode: unknown,
  newPtr: string | undefined,
): { ctx: Ctx; o?: Resolved; n?: Resolved } {
  const o = oldPtr !== undefined ? resolve(ctx.oldDoc, oldNode, oldPtr) : undefined;
  const n = newPtr !== undefined ? resolve(ctx.newDoc, newNode, newPtr) : undefined;
  return { ctx, ...(o ? { o } : {}), ...(n ? { n } : {}) };
}

/**
 * Nearest `x-provenance` on the element or its ancestors in the document tree (the spec's
 * inheritance rule). Ancestors in the tree, not along the `$ref` route taken to get there, so a
 * shared component is judged the same whichever operation reached it.
 */
function nearestMark(doc: unknown, pointer: string): { at: string; value: unknown; gap: unknown } {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  let found = { at: '', value: undefined as unknown, gap: undefined as unknown };
  for (let i = 0; i <= tokens.length; i++) {
    const at = i === 0 ? '' : `/${tokens.slice(0, i).join('/')}`;
    const node = get(doc, at);
    if (isObj(node) && typeof node['x-provenance'] === 'string')
      found = { at, value: node['x-provenance'], gap: node['x-gap'] };
  }
  return found;
}

function assumedMark(
  ctx: Ctx,
  oldPtr: string | undefined,
  newPtr: string | undefined,
): AssumedMark | undefined {
  // The old side first: the question is whether what clients relied on was a guess.
  for (const [version, doc, p] of [
    ['old', ctx.oldDoc, oldPtr],
    ['new', ctx.newDoc, newPtr],
  ] as const) {
    if (p === undefined) continue;
    const m = nearestMark(doc, p);
    if (m.value !== 'assumed') continue;
    return { pointer: m.at, version, ...(typeof m.gap === 'string' ? { gap: m.gap } : {}) };
  }
  return undefined;
}

/**
 * Emits one finding of rule `rule`. The level is the rules table's (`rules.ts`), or the team's
 * override: emitters name the rule only, so a level is chosen in one place. A rule id the table
 * does not hold is a bug of the engine, not a finding.
 */
export function emit(
  ctx: Ctx,
  rule: string,
  message: string,
  oldPtr: string | undefined,
  newPtr: string | undefined,
): void {
  const level = RULES.get(rule);
  if (level === undefined)
    throw new Error(`diff-spec raised '${rule}', a rule rules.ts does not hold`);
  const assumed = assumedMark(ctx, oldPtr, newPtr);
  ctx.sink.add({
    rule,
    level: ctx.levels?.[rule] ?? level,
    message,
    ...(oldPtr !== undefined ? { old: oldPtr } : {}),
    ...(newPtr !== undefined ? { new: newPtr } : {}),
    where: ctx.where ? [ctx.where] : [],
    ...(assumed ? { assumed } : {}),
  });
}
