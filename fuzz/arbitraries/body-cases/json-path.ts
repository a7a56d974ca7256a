/** Copies of a JSON value with one place changed, addressed by a path of keys and indices. */

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** `root` with `value` at `path`, creating missing containers on the way. */
export function setAt(
  root: unknown,
  path: ReadonlyArray<string | number>,
  value: unknown,
): unknown {
  if (path.length === 0) return value;
  const out = clone(root);
  let node = (out !== null && typeof out === 'object' ? out : {}) as Record<
    string | number,
    unknown
  >;
  const top = node;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      // defineProperty so that a key like `__proto__` becomes an own, serialised property.
      Object.defineProperty(node, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      break;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const child = typeof path[i + 1] === 'number' ? [] : {};
      node[key] = child;
      node = child as Record<string | number, unknown>;
    } else node = next as Record<string | number, unknown>;
  }
  return top;
}

/** `root` without the property at `path` (unchanged when absent). */
export function deleteAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  const out = clone(root);
  let node: unknown = out;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return out;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (node !== null && typeof node === 'object') {
    const last = path[path.length - 1]!;
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete (node as Record<string | number, unknown>)[last];
  }
  return out;
}

/** Whether `root` holds a (non-array) object at `path`. */
export function isObjectAt(root: unknown, path: ReadonlyArray<string | number>): boolean {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node);
}
