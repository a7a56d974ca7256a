/**
 * The net under the rules: every difference between the two documents that no finding already
 * points at is reported, at INFO — a description reworded, an example, `info`, `servers`, a tag,
 * an extension, a keyword no rule judges. A report that says nothing about a change it did not
 * rate reads as "no change", which it is not.
 *
 * The documents are walked side by side from the root, `$ref`s followed (so a component is
 * compared where it is used, and an inline schema moved into a component is no change), `allOf`
 * parts folded into their schema (moving a property into a part is no change either), arrays
 * compared as sets (reordering is none), path items paired by their template the way the rules
 * pair them. A difference is covered when some finding points at it or above it on both sides;
 * the walk reports the others at the deepest pointer that differs. Components no path, webhook
 * or other component reaches are compared on their own. Linear in the documents' size: each
 * pair of nodes is compared once.
 */
import { get, join } from './pointer.ts';
import type { Finding } from './types.ts';
import { type Ctx, emit, isObj, type Obj } from './walk-context.ts';

/** One node of a document as the walk sees it: its value, where it is, its members. */
interface Node {
  v: unknown;
  ptr: string;
  /**
   * What the node is for comparing once: its pointer, or for a `$ref` with members beside it
   * (or a property several `allOf` parts declare) the pointers it is made of.
   */
  id?: string;
  /** Members of an object, each with the pointer it has in the document. */
  kids?: Map<string, Node>;
}

interface Diff {
  old: string;
  new: string;
  /** Which member differs, for the rule and the message: the last token that names it. */
  key: string;
  how: 'added' | 'removed' | 'changed' | 'renamed';
  /** What to say instead of the pointer and how (a name added to `required`). */
  say?: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Annotations: what they say changes no value a client sends or gets. */
const ANNOTATIONS = new Set([
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  '$comment',
  'operationId',
  'tags',
]);

const lastToken = (ptr: string) =>
  (ptr.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

/** A `$ref` followed to its target; members written next to it override the target's. */
function build(doc: unknown, v: unknown, ptr: string, depth = 0): Node {
  let cur = v;
  let curPtr = ptr;
  const siblings = new Map<string, Node>();
  for (let hops = 0; hops < 32 && isObj(cur) && typeof cur.$ref === 'string'; hops++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#')) break;
    for (const [k, x] of Object.entries(cur))
      if (k !== '$ref' && !siblings.has(k)) siblings.set(k, { v: x, ptr: join(curPtr, k) });
    curPtr = decodeURIComponent(ref.slice(1));
    cur = get(doc, ref);
  }
  if (!isObj(cur)) return { v: cur, ptr: curPtr };
  const kids = new Map<string, Node>();
  for (const [k, x] of Object.entries(cur)) kids.set(k, { v: x, ptr: join(curPtr, k) });
  for (const [k, n] of siblings) kids.set(k, n);
  const node: Node = {
    v: cur,
    ptr: curPtr,
    kids,
    ...(siblings.size ? { id: `${ptr}+${curPtr}` } : {}),
  };
  if (Array.isArray(cur.allOf) && depth < 16) foldAllOf(doc, node, cur.allOf, depth);
  return node;
}

/**
 * `allOf` parts folded in, as the rules see a schema (schema/view.ts): their properties and
 * required names joined to the schema's, their other keywords where the schema has none.
 */
function foldAllOf(doc: unknown, node: Node, parts: unknown[], depth: number): void {
  const kids = node.kids!;
  kids.delete('allOf');
  const props = new Map<string, Node>(kidsOf(doc, kids.get('properties')));
  const required = new Set<string>(
    Array.isArray(kids.get('required')?.v) ? (kids.get('required')!.v as string[]) : [],
  );
  let propsPtr = kids.get('properties')?.ptr;
  let reqPtr = kids.get('required')?.ptr;
  parts.forEach((part, i) => {
    const p = build(doc, part, join(node.ptr, 'allOf', i), depth + 1);
    for (const [k, n] of p.kids ?? []) {
      if (k === 'properties') {
        propsPtr ??= n.ptr;
        for (const [name, pn] of kidsOf(doc, n)) props.set(name, both(props.get(name), pn));
      } else if (k === 'required' && Array.isArray(n.v)) {
        reqPtr ??= n.ptr;
        for (const r of n.v) required.add(String(r));
      } else if (!kids.has(k)) kids.set(k, n);
    }
  });
  if (props.size)
    kids.set('properties', {
      v: Object.fromEntries([...props].map(([k, n]) => [k, n.v])),
      ptr: propsPtr!,
      // Made of several parts: compared as this schema's, not as the part it points into.
      id: `${node.id ?? node.ptr}#properties`,
      kids: props,
    });
  if (required.size) kids.set('required', { v: [...required].sort(), ptr: reqPtr! });
}

/**
 * A property two `allOf` parts declare is held to both: compared as the pair, each part at its
 * own pointer (the first part alone would hide what the second narrows).
 */
function both(a: Node | undefined, b: Node): Node {
  if (!a) return b;
  const parts = a.id?.startsWith('&') ? [...a.kids!.values(), b] : [a, b];
  return {
    v: parts.map((p) => p.v),
    ptr: a.ptr,
    id: `&${parts.map((p) => p.ptr).join('&')}`,
    kids: new Map(parts.map((p, i) => [`&${i}`, p])),
  };
}

function kidsOf(doc: unknown, n: Node | undefined): Map<string, Node> {
  if (!n) return new Map();
  return n.kids ?? build(doc, n.v, n.ptr).kids ?? new Map();
}

class Walk {
  readonly diffs: Diff[] = [];
  private readonly memo = new Map<string, boolean>();
  private readonly running = new Set<string>();
  /** Pairs already walked: a recursive schema that changed is walked once. */
  private readonly walked = new Set<string>();
  constructor(
    readonly oldDoc: unknown,
    readonly newDoc: unknown,
  ) {}

  private resolved(doc: unknown, n: Node): Node {
    return n.kids || !isObj(n.v) ? n : build(doc, n.v, n.ptr);
  }

  /** Whether two nodes say the same; a pair met again inside itself is taken as equal. */
  equal(a0: Node, b0: Node): boolean {
    const a = this.resolved(this.oldDoc, a0);
    const b = this.resolved(this.newDoc, b0);
    if (!a.kids || !b.kids) {
      if (a.kids || b.kids) return false;
      if (Array.isArray(a.v) && Array.isArray(b.v)) return this.sameSet(a, b);
      return a.v === b.v;
    }
    const key = `${a.id ?? a.ptr}|${b.id ?? b.ptr}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    if (this.running.has(key)) return true;
    this.running.add(key);
    let same = a.kids.size === b.kids.size;
    if (same)
      for (const [k, x] of a.kids) {
        const y = b.kids.get(k);
        if (!y || !this.equal(x, y)) {
          same = false;
          break;
        }
      }
    this.running.delete(key);
    this.memo.set(key, same);
    return same;
  }

  private items(n: Node): Node[] {
    return (n.v as unknown[]).map((v, i) => ({ v, ptr: join(n.ptr, i) }));
  }

  private sameSet(a: Node, b: Node): boolean {
    const xs = a.v as unknown[];
    const ys = b.v as unknown[];
    if (xs.length !== ys.length) return false;
    if ([...xs, ...ys].every((v) => !isObj(v) && !Array.isArray(v))) {
      const s = (l: unknown[]) =>
        l
          .map((v) => JSON.stringify(v))
          .sort()
          .join(',');
      return s(xs) === s(ys);
    }
    return this.pairItems(a, b).every(([x, y]) => x && y && this.equal(x, y));
  }

  /**
   * Items paired across versions: equal ones first wherever they moved, then by identity (a
   * parameter's `in` and `name`, a `$ref`), then the rest in order; an item left alone has no
   * partner.
   */
  pairItems(a: Node, b: Node): Array<[Node | undefined, Node | undefined]> {
    const left = this.items(a);
    const right = this.items(b);
    const pairs: Array<[Node | undefined, Node | undefined]> = [];
    const take = (match: (x: Node, y: Node) => boolean, keep: boolean) => {
      for (let i = 0; i < left.length; i++) {
        const j = right.findIndex((y) => match(left[i]!, y));
        if (j < 0) continue;
        const x = left.splice(i, 1)[0]!;
        const y = right.splice(j, 1)[0]!;
        if (keep) pairs.push([x, y]);
        i--;
      }
    };
    const prim = (v: unknown) => !isObj(v) && !Array.isArray(v);
    take((x, y) => (prim(x.v) || prim(y.v) ? x.v === y.v : this.equal(x, y)), false);
    const id = (v: unknown) =>
      isObj(v)
        ? typeof v.$ref === 'string'
          ? `ref:${v.$ref}`
          : typeof v.name === 'string'
            ? `name:${String(v.in ?? '')}:${v.name}`
            : undefined
        : undefined;
    take((x, y) => id(x.v) !== undefined && id(x.v) === id(y.v), true);
    while (left.length && right.length) pairs.push([left.shift(), right.shift()]);
    for (const x of left) pairs.push([x, undefined]);
    for (const y of right) pairs.push([undefined, y]);
    return pairs;
  }

  /**
   * `required` lists compared name by name, each difference at the property it is about (where
   * the rules point too); false when either list is not one of names.
   */
  private requiredNames(a: Node, b: Node): boolean {
    const names = (n: Node) => {
      const v = n.kids!.get('required')?.v ?? [];
      return Array.isArray(v) && v.every((x) => typeof x === 'string')
        ? new Set(v as string[])
        : undefined;
    };
    const [x, y] = [names(a), names(b)];
    if (!x || !y) return false;
    const prop = (n: Node, name: string) =>
      kidsOf(n === a ? this.oldDoc : this.newDoc, n.kids!.get('properties')).get(name)?.ptr ??
      n.kids!.get('required')?.ptr ??
      n.ptr;
    for (const name of x)
      if (!y.has(name))
        this.diffs.push({
          old: prop(a, name),
          new: prop(b, name),
          key: 'required',
          how: 'removed',
          say: `\`${name}\` no longer required`,
        });
    for (const name of y)
      if (!x.has(name))
        this.diffs.push({
          old: prop(a, name),
          new: prop(b, name),
          key: 'required',
          how: 'added',
          say: `\`${name}\` now required`,
        });
    return true;
  }

  /** Walks a pair that differs down to the members that do; `key`: what names the pair. */
  walk(a0: Node, b0: Node, key: string, pairKeys?: (k: string) => string): void {
    if (this.equal(a0, b0)) return;
    const a = this.resolved(this.oldDoc, a0);
    const b = this.resolved(this.newDoc, b0);
    const pair = `${a.id ?? a.ptr}|${b.id ?? b.ptr}`;
    if (this.walked.has(pair)) return;
    this.walked.add(pair);
    // A property several allOf parts declare, against one part or another set of parts.
    const parts = (n: Node) => (n.id?.startsWith('&') ? [...n.kids!.values()] : undefined);
    const [pa, pb] = [parts(a), parts(b)];
    if (pa || pb) {
      const xs = pa ?? [a];
      const ys = pb ?? [b];
      for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
        const x = xs[Math.min(i, xs.length - 1)]!;
        const y = ys[Math.min(i, ys.length - 1)]!;
        this.walk(x, y, key);
      }
      return;
    }
    if (a.kids && b.kids) {
      const norm = pairKeys ?? ((k: string) => k);
      const bByNorm = new Map([...b.kids.keys()].map((k) => [norm(k), k]));
      const aNorms = new Set([...a.kids.keys()].map(norm));
      const byName = (a.kids.has('required') || b.kids.has('required')) && this.requiredNames(a, b);
      for (const [k, x] of a.kids) {
        if (k === 'required' && byName) continue;
        const bk = bByNorm.get(norm(k));
        if (bk === undefined) this.diffs.push({ old: x.ptr, new: b.ptr, key: k, how: 'removed' });
        else {
          if (bk !== k)
            this.diffs.push({ old: x.ptr, new: b.kids.get(bk)!.ptr, key: k, how: 'renamed' });
          this.walk(x, b.kids.get(bk)!, k);
        }
      }
      for (const [k, y] of b.kids)
        if (!aNorms.has(norm(k)) && !(k === 'required' && byName))
          this.diffs.push({ old: a.ptr, new: y.ptr, key: k, how: 'added' });
      return;
    }
    if (Array.isArray(a.v) && Array.isArray(b.v)) {
      for (const [x, y] of this.pairItems(a, b)) {
        if (x && y) this.walk(x, y, key);
        else if (x) this.diffs.push({ old: x.ptr, new: b.ptr, key, how: 'removed' });
        else if (y) this.diffs.push({ old: a.ptr, new: y.ptr, key, how: 'added' });
      }
      return;
    }
    this.diffs.push({ old: a.ptr, new: b.ptr, key, how: 'changed' });
  }
}

/** `/t/{id}` and `/t/{ticketId}` are one path to a client (as operations.ts pairs them). */
const template = (p: string) => p.replace(/\{[^}]*\}/g, '{}');

/** `$ref` targets reachable from `start`, transitively (pointers without `#`). */
function reachable(doc: unknown, start: unknown): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [start];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isObj(v)) {
      if (typeof v.$ref === 'string' && v.$ref.startsWith('#')) {
        const p = decodeURIComponent(v.$ref.slice(1));
        if (!seen.has(p)) {
          seen.add(p);
          stack.push(get(doc, p));
        }
      }
      for (const [k, x] of Object.entries(v)) if (k !== '$ref') stack.push(x);
    }
  }
  return seen;
}

/** Every difference between the documents, at the deepest pointer where it shows. */
export function documentDiffs(oldDoc: unknown, newDoc: unknown): Diff[] {
  const w = new Walk(oldDoc, newDoc);
  const o = isObj(oldDoc) ? oldDoc : {};
  const n = isObj(newDoc) ? newDoc : {};
  const top = (d: Obj, k: string): Node => ({ v: d[k], ptr: join('', k) });
  const sections = new Set([...Object.keys(o), ...Object.keys(n)]);
  sections.delete('components');
  for (const k of sections) {
    if (o[k] === undefined) w.diffs.push({ old: '', new: join('', k), key: k, how: 'added' });
    else if (n[k] === undefined)
      w.diffs.push({ old: join('', k), new: '', key: k, how: 'removed' });
    else if (k === 'paths') w.walk(top(o, k), top(n, k), k, template);
    else w.walk(top(o, k), top(n, k), k);
  }
  // Components reached from the rest were compared where they are used; the others here.
  const used = new Set([
    ...reachable(oldDoc, { ...o, components: undefined }),
    ...reachable(newDoc, { ...n, components: undefined }),
  ]);
  const oc = isObj(o.components) ? o.components : {};
  const nc = isObj(n.components) ? n.components : {};
  for (const kind of new Set([...Object.keys(oc), ...Object.keys(nc)])) {
    const om = isObj(oc[kind]) ? oc[kind] : {};
    const nm = isObj(nc[kind]) ? nc[kind] : {};
    for (const name of new Set([...Object.keys(om), ...Object.keys(nm)])) {
      const ptr = join('', 'components', kind, name);
      if (used.has(ptr)) continue;
      if (om[name] === undefined)
        w.diffs.push({ old: join('', 'components', kind), new: ptr, key: name, how: 'added' });
      else if (nm[name] === undefined)
        w.diffs.push({ old: ptr, new: join('', 'components', kind), key: name, how: 'removed' });
      else w.walk({ v: om[name], ptr }, { v: nm[name], ptr }, name);
    }
  }
  return w.diffs;
}

/** One pointer is the other or above it. */
const onLine = (p: string, q: string) =>
  p === q || p === '' || q === '' || q.startsWith(`${p}/`) || p.startsWith(`${q}/`);

/**
 * Keywords whose change a rule about another reports: a `format` goes with its type (oasdiff
 * rates them as one), an `x-sunset` with the deprecation that announces it.
 */
const RELATED: Record<string, string> = { format: 'type', 'x-sunset': 'deprecated' };

/**
 * A finding points at the difference, above it or below it, in both versions (a `type-changed`
 * at `…/type` covers that keyword; `composition-wrapped` at the schema and its `oneOf`
 * covers the keywords the wrapping moved).
 */
function coveredBy(findings: readonly Finding[]): (d: Diff) => boolean {
  const list = findings.filter((f) => f.old !== undefined || f.new !== undefined);
  const hit = (d: { old: string; new: string }) =>
    list.some(
      (f) =>
        (f.old === undefined || onLine(f.old, d.old)) &&
        (f.new === undefined || onLine(f.new, d.new)),
    );
  return (d) => {
    if (hit(d)) return true;
    // Which requirement applies to an operation may come from the root: the rules point there.
    if (d.key === 'security')
      return list.some(
        (f) =>
          (f.old !== undefined && onLine(f.old, d.old)) ||
          (f.new !== undefined && onLine(f.new, d.new)),
      );
    const rel = RELATED[d.key];
    if (!rel) return false;
    const swap = (p: string) =>
      p.endsWith(`/${d.key}`) ? `${p.slice(0, -d.key.length)}${rel}` : p;
    return hit({ old: swap(d.old), new: swap(d.new) });
  };
}

/** `GET /t/{id}` for a pointer inside an operation, as the rules name it in `where`. */
function whereOf(ptr: string): string {
  const t = ptr.split('/').map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (t[1] === 'paths' && t[2] !== undefined)
    return METHODS.has(t[3] ?? '') ? `${t[3]!.toUpperCase()} ${t[2]}` : t[2];
  if (t[1] === 'webhooks' && t[2] !== undefined)
    return METHODS.has(t[3] ?? '') ? `webhook ${t[2]} (${t[3]!.toUpperCase()})` : `webhook ${t[2]}`;
  return '';
}

function ruleOf(d: Diff): string {
  if (d.key === 'description') return 'description-changed';
  if (ANNOTATIONS.has(d.key) || d.key.startsWith('x-')) return 'annotation-changed';
  return 'other-change';
}

/**
 * Reports, through `ctx`'s sink, each difference no finding in `findings` covers: INFO
 * `description-changed`, `annotation-changed` or `other-change` (rules.ts).
 */
export function reportUncovered(ctx: Ctx, findings: readonly Finding[]): void {
  const covered = coveredBy(findings);
  const diffs = documentDiffs(ctx.oldDoc, ctx.newDoc);
  const renamed = diffs.filter((d) => d.how === 'renamed');
  for (const d of diffs) {
    if (covered(d)) continue;
    // A path variable renamed with its path: the rename says it.
    if (
      d.key === 'name' &&
      renamed.some((r) => d.old.startsWith(`${r.old}/`)) &&
      isPathParam(ctx.oldDoc, d.old)
    )
      continue;
    const item = /\/\d+$/.test(d.how === 'added' ? d.new : d.old) ? ' item' : '';
    const value =
      d.how === 'added'
        ? short(get(ctx.newDoc, d.new))
        : d.how === 'removed'
          ? short(get(ctx.oldDoc, d.old))
          : `${short(get(ctx.oldDoc, d.old))} → ${short(get(ctx.newDoc, d.new))}`;
    const message =
      d.say ??
      (d.how === 'renamed'
        ? `\`${d.key}\` is now written \`${lastToken(d.new)}\``
        : `\`${d.key}\`${item} ${d.how}: ${value}`);
    emit(
      { ...ctx, where: whereOf(d.how === 'added' ? d.new : d.old) },
      ruleOf(d),
      message,
      d.old,
      d.new,
    );
  }
}

/** `ptr` is the `name` of a path parameter. */
function isPathParam(doc: unknown, ptr: string): boolean {
  const p = get(doc, ptr.slice(0, ptr.lastIndexOf('/')));
  return isObj(p) && p.in === 'path';
}

/** A value as a short JSON text for a message. */
function short(v: unknown): string {
  const s = JSON.stringify(v) ?? 'absent';
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}
