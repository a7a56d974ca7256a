/** A comparable fingerprint of a schema: refs inlined, annotations and extensions dropped. */
import { isObj, type Obj, resolve } from '../walk-context.ts';

export const ANNOTATION_KEYS = new Set(['description', 'title', 'example', 'examples', '$comment']);

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

/** `canonical` as a string: two schemas with equal fingerprints admit the same values. */
export function fingerprint(doc: unknown, node: unknown): string {
  return JSON.stringify(canonical(doc, node));
}
