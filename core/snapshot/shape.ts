/**
 * Inferred JSON shapes, for the behaviour snapshot: what a deployment actually answers, as a
 * small type tree that two snapshots can be compared on (values never matter, types do).
 */
export type Shape = string | { object: Record<string, Shape> } | { array: Shape };

/**
 * Bounds of a shape, so inferring one is linear in the answer and never overflows the stack: a
 * value nested deeper is the type `nested-deeper` (an array nested ten thousand deep is a finding
 * of the schema check, not a type tree), and an object's keys past the first SHAPE_KEYS (sorted)
 * are one key `…` (keys that are data — ids, tags — would make every snapshot differ anyway).
 */
export const SHAPE_DEPTH = 32;
export const SHAPE_KEYS = 100;
export const DEEPER = 'nested-deeper';
const MORE_KEYS = '…';

export function shapeOf(v: unknown): Shape {
  return shapeAt(v, 0);
}

function shapeAt(v: unknown, depth: number): Shape {
  if (v === null) return 'null';
  if (typeof v === 'object' && depth >= SHAPE_DEPTH) return DEEPER;
  if (Array.isArray(v)) {
    // Items of one shape are merged once: a list of ten thousand alike tickets costs one merge.
    const distinct = new Map<string, Shape>();
    for (const item of v) {
      const s = shapeAt(item, depth + 1);
      const key = typeof s === 'string' ? s : shapeText(s);
      if (!distinct.has(key)) distinct.set(key, s);
    }
    return { array: [...distinct.values()].reduce(mergeShapes, 'never' as Shape) };
  }
  if (typeof v === 'object') {
    const out: Record<string, Shape> = {};
    const keys = Object.keys(v as object).sort();
    for (const k of keys.slice(0, SHAPE_KEYS))
      out[k] = shapeAt((v as Record<string, unknown>)[k], depth + 1);
    if (keys.length > SHAPE_KEYS) out[MORE_KEYS] = 'object';
    return { object: out };
  }
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function union(a: string, b: string): string {
  return (
    [...new Set([...a.split('|'), ...b.split('|')])]
      .filter((s) => s !== 'never')
      .sort()
      .join('|') || 'never'
  );
}

export function mergeShapes(a: Shape, b: Shape): Shape {
  if (a === 'never') return b;
  if (b === 'never') return a;
  if (typeof a === 'string' && typeof b === 'string') return union(a, b);
  if (typeof a === 'object' && typeof b === 'object' && 'object' in a && 'object' in b) {
    const all = [...new Set([...Object.keys(a.object), ...Object.keys(b.object)])].sort();
    const keys = all.length > SHAPE_KEYS + 1 ? all.slice(0, SHAPE_KEYS) : all;
    const out: Record<string, Shape> = {};
    // A key missing on one side is optional: mark it with '?' in its union.
    for (const k of keys) {
      const x = a.object[k];
      const y = b.object[k];
      out[k] = x && y ? mergeShapes(x, y) : mergeShapes(x ?? 'undefined', y ?? 'undefined');
    }
    if (keys.length < all.length) out[MORE_KEYS] = 'object';
    return { object: out };
  }
  if (typeof a === 'object' && typeof b === 'object' && 'array' in a && 'array' in b) {
    return { array: mergeShapes(a.array, b.array) };
  }
  return union(shapeText(a), shapeText(b));
}

export function shapeText(s: Shape): string {
  if (typeof s === 'string') return s;
  if ('array' in s) return `${shapeText(s.array)}[]`;
  return `{${Object.entries(s.object)
    .map(([k, v]) => `${k}: ${shapeText(v)}`)
    .join(', ')}}`;
}

/** Flattens a shape to `pointer → type` pairs (for diffs). */
export function flattenShape(s: Shape, prefix = ''): Record<string, string> {
  if (typeof s === 'string') return { [prefix || '/']: s };
  if ('array' in s) return { [prefix || '/']: 'array', ...flattenShape(s.array, `${prefix}/*`) };
  const out: Record<string, string> = { [prefix || '/']: 'object' };
  for (const [k, v] of Object.entries(s.object))
    Object.assign(out, flattenShape(v, `${prefix}/${k}`));
  return out;
}
