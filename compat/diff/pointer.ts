/** RFC 6901 helpers: findings point into each version with plain JSON pointers. */

export function escapeToken(token: string): string {
  // Hot path (every node of a multi-MB spec): most tokens need no escaping.
  if (token.indexOf('~') < 0 && token.indexOf('/') < 0) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function join(pointer: string, ...tokens: (string | number)[]): string {
  let out = pointer;
  for (const t of tokens) out += `/${typeof t === 'number' ? t : escapeToken(t)}`;
  return out;
}

/** Resolves a pointer (with or without a leading `#`) against a document; undefined if absent. */
export function get(doc: unknown, pointer: string): unknown {
  const p = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (p === '') return doc;
  let node: unknown = doc;
  for (const raw of p.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
