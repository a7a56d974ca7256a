/**
 * Cursor pagination and list query parsing (docs/assumptions.md U4: limit 1–100, default 25), and
 * the ticket list's other readings of that gap (server/readings/lists.ts): no paging, oldest first,
 * another envelope, a smaller largest page.
 */
import type { FieldError } from '../problem.ts';
import type { ListBehaviour } from '../readings/lists.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ s: seq })).toString('base64url');
}

/** The sequence number behind a cursor, or undefined when the cursor is not one we issued. */
export function decodeCursor(cursor: string): number | undefined {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    return typeof v.s === 'number' && Number.isInteger(v.s) ? v.s : undefined;
  } catch {
    return undefined;
  }
}

/** How a list pages: `paged` false lists everything (limit and cursor are not read at all). */
export interface Paging {
  paged: boolean;
  /** The largest `limit`. */
  max: number;
}

export function parseListQuery<F extends Record<string, readonly string[]>>(
  query: Record<string, unknown>,
  enums: F,
  paging: Paging = { paged: true, max: MAX_LIMIT },
):
  | { limit: number; cursor?: string; filters: { [K in keyof F]?: F[K][number] } }
  | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  let limit = paging.paged ? DEFAULT_LIMIT : Number.POSITIVE_INFINITY;
  if (paging.paged && query.limit !== undefined) {
    const raw = String(query.limit);
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > paging.max) {
      errors.push({
        field: 'limit',
        code: 'range',
        message: `limit must be an integer from 1 to ${paging.max}`,
      });
    } else limit = n;
  }
  let cursor: string | undefined;
  if (paging.paged && query.cursor !== undefined) {
    cursor = String(query.cursor);
    if (!cursor)
      errors.push({ field: 'cursor', code: 'invalid', message: 'cursor must not be empty' });
  }
  const filters: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(enums)) {
    const v = query[name];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !allowed.includes(v)) {
      errors.push({
        field: name,
        code: 'enum',
        message: `${name} must be one of ${allowed.join(', ')}`,
      });
    } else filters[name] = v;
  }
  if (errors.length > 0) return { errors };
  return { limit, cursor, filters: filters as { [K in keyof F]?: F[K][number] } };
}

/**
 * One page of `ordered` (ascending `seq`): the first `limit` tickets `keep` admits after the
 * cursor's (`after`, its seq; none: from the start), newest or oldest first, and whether more
 * follow. The faults: `skip` leaves out that many, `overlap` lists the cursor's own again.
 */
export function pageOf<T extends { seq: number }>(
  ordered: readonly T[],
  o: {
    after?: number;
    limit: number;
    newestFirst: boolean;
    keep: (t: T) => boolean;
    skip: number;
    overlap: boolean;
  },
): { page: T[]; more: boolean } {
  const step = o.newestFirst ? -1 : 1;
  const after = o.after ?? (o.newestFirst ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY);
  // Newest first: the tickets below the cursor's seq; oldest first: those above it.
  const start = o.newestFirst
    ? lastIndexBefore(ordered, o.overlap ? after + 1 : after)
    : lastIndexBefore(ordered, o.overlap ? after : after + 1) + 1;
  let skip = o.skip;
  const rest: T[] = [];
  for (let i = start; i >= 0 && i < ordered.length && rest.length <= o.limit; i += step) {
    if (!o.keep(ordered[i]!)) continue;
    if (skip > 0) skip--;
    else rest.push(ordered[i]!);
  }
  return { page: rest.slice(0, o.limit), more: rest.length > o.limit };
}

/** The index of the last item of `ordered` (ascending `seq`) whose seq is below `seq`, or -1. */
function lastIndexBefore(ordered: readonly { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ordered[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The list answer in the deployment's envelope: `next` is the next page's cursor, `nextUrl` its
 * address (null on the last page). Without paging there is no paging key to give.
 */
export function listAnswer(
  b: Pick<ListBehaviour, 'listPaging' | 'listEnvelope'>,
  data: unknown[],
  next: string | null,
  nextUrl: string | null,
): unknown {
  const paged = b.listPaging === 'cursor';
  if (b.listEnvelope === 'bare-array') return data;
  if (b.listEnvelope === 'items-next')
    return paged ? { items: data, next: nextUrl } : { items: data };
  return paged ? { data, has_more: next !== null, next_cursor: next } : { data };
}
