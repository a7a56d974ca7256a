/**
 * Whether two JSON values are equal — what `JSON.stringify(a) === JSON.stringify(b)` said, but
 * without recursion (JSON.stringify overflows the stack on an array nested ten thousand deep,
 * which a lax target stores and serves back) and without key order mattering (`{a, b}` and
 * `{b, a}` are one object). Members that JSON leaves out (undefined) are absent; a number that
 * JSON cannot write is null.
 */

/** A scalar as JSON writes it (undefined: left out). */
function scalar(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'function' || typeof v === 'symbol') return undefined;
  return v;
}

/** A member of an array as JSON writes it: a left-out value is null. */
const inArray = (v: unknown) => (scalar(v) === undefined ? null : v);

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';

function definedKeys(o: object): string[] {
  return Object.keys(o).filter((k) => scalar((o as Record<string, unknown>)[k]) !== undefined);
}

export function sameJson(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (!isObject(x) || !isObject(y)) {
      if (scalar(x) !== scalar(y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([inArray(x[i]), inArray(ys[i])]);
      continue;
    }
    const kx = definedKeys(x);
    const ky = definedKeys(y);
    if (kx.length !== ky.length) return false;
    const yr = y as Record<string, unknown>;
    for (const k of kx) {
      if (scalar(yr[k]) === undefined) return false;
      stack.push([(x as Record<string, unknown>)[k], yr[k]]);
    }
  }
  return true;
}
