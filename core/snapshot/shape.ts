/**
 * Inferred JSON shapes, for the behaviour snapshot: what a deployment actually answers, as a
 * small type tree that two snapshots can be compared on (values never matter, types do).
 */
export type Shape = string | { object: Record<string, Shape> } | { array: Shape };

export function shapeOf(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return { array: v.map(shapeOf).reduce(mergeShapes, 'never' as Shape) };
  if (typeof v === 'object') {
    const out: Record<string, Shape> = {};
    for (const k of Object.keys(v as object).sort())
      out[k] = shapeOf((v as Record<string, unknown>)[k]);
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
    const keys = [...new Set([...Object.keys(a.object), ...Object.keys(b.object)])].sort();
    const out: Record<string, Shape> = {};
    // A key missing on one side is optional: mark it with '?' in its union.
    for (const k of keys) {
      const x = a.object[k];
      const y = b.object[k];
      out[k] = x && y ? mergeShapes(x, y) : mergeShapes(x ?? 'undefined', y ?? 'undefined');
    }
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
