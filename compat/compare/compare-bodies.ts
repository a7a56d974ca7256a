/**
 * Response bodies compared by their inferred shapes: fields removed, added, retyped, or become
 * optional or required. `integer` and `number` are one type, an array seen only empty says
 * nothing about its items, and the keys of a map of counts are data, not behaviour.
 */
import { flattenShape, type Shape } from '../../core/snapshot/shape.ts';
import { union } from './order.ts';
import type { Findings, RuleId } from './rules.ts';

/** Adds a finding about one field: the rule, what is said of the field, the values compared. */
type Add = (rule: RuleId, said: string, values: { baseline?: string; current?: string }) => void;

/** A flattened type as a set; `integer` folds into `number`, `never` (empty array) drops out. */
function typeSet(t: string): Set<string> {
  return new Set(
    t
      .split('|')
      .map((p) => (p === 'integer' ? 'number' : p))
      .filter((p) => p !== 'never'),
  );
}

const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
const parentOf = (p: string) => (depth(p) <= 1 ? '/' : p.slice(0, p.lastIndexOf('/')));

/**
 * Objects whose members are all numbers, with two or more keys between both sides or a key
 * seen only sometimes: maps of counts keyed by data (`{"open": 3, "pending": 1}`). No resource
 * of the API is made of numbers only.
 */
function countMapsOf(...flats: Array<Record<string, string>>): string[] {
  const members = new Map<string, Map<string, string[]>>();
  for (const flat of flats)
    for (const [p, t] of Object.entries(flat)) {
      if (p === '/' || p.endsWith('/*') || !typeSet(flat[parentOf(p)] ?? '').has('object'))
        continue;
      const m = members.get(parentOf(p)) ?? new Map<string, string[]>();
      m.set(p, [...(m.get(p) ?? []), t]);
      members.set(parentOf(p), m);
    }
  const numeric = (t: string) => [...typeSet(t)].every((x) => x === 'number' || x === 'undefined');
  return [...members]
    .filter(([, m]) => {
      const ts = [...m.values()].flat();
      const sometimes = ts.some((t) => typeSet(t).has('undefined'));
      return ts.every(numeric) && (m.size >= 2 || sometimes);
    })
    .map(([p]) => p);
}
/** Whether `p` lies under a settled pointer (the root counts for every other pointer). */
function settledAbove(p: string, settled: ReadonlySet<string>): boolean {
  if (p === '/') return false;
  if (settled.has('/')) return true;
  for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1))
    if (settled.has(p.slice(0, i))) return true;
  return false;
}

/**
 * A field as the resource it belongs to names it, wherever the resource appears: the pointer
 * within the innermost array item (`/data/*\/requester/name` and `/requester/name` are both
 * `requester/name`).
 */
export function fieldKey(pointer: string): string {
  const parts = pointer.split('/');
  const star = parts.lastIndexOf('*');
  return parts
    .slice(star + 1)
    .filter(Boolean)
    .join('/');
}

/** The fields some answer of `shapes` left out: data-dependent wherever else they appear. */
export function sometimesMissing(shapes: Iterable<Shape | undefined>): Set<string> {
  const keys = new Set<string>();
  for (const s of shapes) {
    if (!s) continue;
    for (const [p, t] of Object.entries(flattenShape(s)))
      if (typeSet(t).has('undefined')) keys.add(fieldKey(p));
  }
  return keys;
}

export function compareBody(
  out: Findings,
  at: { operation: string; status: string },
  a: Shape | undefined,
  b: Shape | undefined,
  /** Fields (fieldKey) the baseline saw missing in some answer, of any operation. */
  missingSometimes: ReadonlySet<string> = new Set(),
): void {
  if (a === undefined && b === undefined) return;
  if (b === undefined) {
    out.add('response-body-not-json', `${at.operation} ${at.status} no longer answers JSON`, at);
    return;
  }
  if (a === undefined) {
    out.add('response-body-now-json', `${at.operation} ${at.status} now answers JSON`, at);
    return;
  }
  const fa = flattenShape(a);
  const fb = flattenShape(b);
  // Parents first, so a removed or added container is one finding, not one per leaf.
  const pointers = union(fa, fb).sort((p, q) => depth(p) - depth(q) || p.localeCompare(q));
  // Pointers whose subtree is settled: a field is skipped when one of its ancestors is (looked
  // up by ancestor, not by scanning them all: a wide body has thousands of pointers).
  const settled = new Set<string>();
  const countMaps = new Set(countMapsOf(fa, fb));
  for (const field of pointers) {
    if (settledAbove(field, settled)) continue;
    const add: Add = (rule, said, values) =>
      out.add(rule, `${at.operation} ${at.status} ${field} ${said}`, { ...at, field }, values);
    const ta = fa[field];
    const tb = fb[field];
    // Which keys a map of counts has depends on the data the run created, not on behaviour.
    const inCounts = countMaps.has(parentOf(field));
    if (tb === undefined) {
      if (inCounts) {
        // The key's presence is data, not behaviour.
      } else if (typeSet(ta!).has('undefined'))
        add('response-field-not-observed', '(sometimes sent before) was not seen', {
          baseline: ta,
        });
      else add('response-field-removed', 'is no longer sent', { baseline: ta });
      settled.add(field);
      continue;
    }
    if (ta === undefined) {
      if (!inCounts) add('response-field-added', 'is new', { current: tb });
      settled.add(field);
      continue;
    }
    const seenMissing = missingSometimes.has(fieldKey(field));
    if (
      !compareTypes(add, ta, tb, inCounts, seenMissing, (said) =>
        out.note('data', `${at.operation} ${at.status} ${field} ${said}`, { ...at, field }),
      )
    )
      settled.add(field);
  }
}

/** The types of a field both sides send; false when there is nothing to compare below it. */
function compareTypes(
  add: Add,
  ta: string,
  tb: string,
  inCounts: boolean,
  /** The baseline saw this field missing in another operation's answers. */
  seenMissing: boolean,
  note: (said: string) => void,
): boolean {
  const x = typeSet(ta);
  const y = typeSet(tb);
  // Items of an array seen only empty on one side: nothing to compare below.
  if (x.size === 0 || y.size === 0) return false;
  const optA = x.delete('undefined');
  const optB = y.delete('undefined');
  const lost = [...x].filter((t) => !y.has(t));
  const gained = [...y].filter((t) => !x.has(t));
  const values = { baseline: ta, current: tb };
  if (lost.length > 0 && gained.length > 0)
    add('response-field-retyped', `was ${ta}, is ${tb}`, values);
  else if (gained.length > 0)
    add('response-field-type-widened', `can now be ${gained.join('|')}`, values);
  else if (lost.length > 0)
    add('response-field-type-narrowed', `is no longer ${lost.join('|')}`, values);
  // In a map of counts, whether a key shows is data, not behaviour. A field the baseline saw
  // missing at times and this run always saw is absence of evidence, not a change: which tickets
  // a list returns depends on what the suite's parallel tests created just before it.
  // The resource leaves this field out for some data (the baseline saw it missing elsewhere, e.g.
  // a ticket of a requester without a name): which items this answer held is data too.
  if (!inCounts && !optA && optB) {
    if (seenMissing)
      note(
        'is sometimes missing now, as the baseline saw it elsewhere: whether this answer met such data is not behaviour',
      );
    else add('response-field-became-optional', 'is sometimes missing now', values);
  }
  return true;
}
