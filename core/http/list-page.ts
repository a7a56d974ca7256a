/**
 * Reading a list answer whatever its envelope — not shown in the docs (U4): its rows (a bare
 * array, our envelope's `data`, or the one array of another envelope) and where its next page is.
 * What every list read of the harness goes by: the checks, the walks, the counts, the read tally.
 */

/**
 * The array a list answer holds, whatever its envelope (not shown in the docs, U4): a bare array,
 * the envelope's `data`, or else the one array the answer's object holds (`{items, next}`).
 */
export function listArray(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  if ('data' in o) return Array.isArray(o.data) ? o.data : undefined;
  const arrays = Object.values(o).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * The rows a list answer holds, whatever its envelope (`listArray`). Whether the list has our
 * assumed envelope is tickets.list-envelope's verdict alone: the filter and isolation checks judge
 * the rows listed, whatever the list's shape.
 */
export function listRows(json: unknown): Array<Record<string, unknown>> {
  return (listArray(json) ?? []).filter(
    (t): t is Record<string, unknown> => typeof t === 'object' && t !== null,
  );
}

/**
 * The query of the next page a list answer points to (`query`: the one it answered): the
 * envelope's cursor (`has_more`, `next_cursor`: U4), else the address the answer gives — a `next`
 * field or the Link header's rel="next" — by its query parameters (a `next` without any is a
 * cursor). Undefined: the answer names no next page.
 */
export function listNext(
  json: unknown,
  link: string | undefined,
  query: Readonly<Record<string, string | number | undefined>>,
): Record<string, string | number | undefined> | undefined {
  const o = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if ('next_cursor' in o)
    return o.has_more === true && typeof o.next_cursor === 'string' && o.next_cursor
      ? { ...query, cursor: o.next_cursor }
      : undefined;
  const next =
    typeof o.next === 'string' && o.next
      ? o.next
      : /<([^>]*)>[^,]*;\s*rel="?next"?/i.exec(link ?? '')?.[1];
  if (!next) return undefined;
  const params = new URL(next, 'http://list.invalid').searchParams;
  return params.size > 0 ? Object.fromEntries(params) : { ...query, cursor: next };
}
