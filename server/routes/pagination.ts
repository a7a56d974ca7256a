/** Cursor pagination and list query parsing (docs/assumptions.md U4: limit 1–100, default 25). */
import type { FieldError } from '../problem.ts';

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

export function parseListQuery<F extends Record<string, readonly string[]>>(
  query: Record<string, unknown>,
  enums: F,
):
  | { limit: number; cursor?: string; filters: { [K in keyof F]?: F[K][number] } }
  | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined) {
    const raw = String(query.limit);
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIMIT) {
      errors.push({
        field: 'limit',
        code: 'range',
        message: `limit must be an integer from 1 to ${MAX_LIMIT}`,
      });
    } else limit = n;
  }
  let cursor: string | undefined;
  if (query.cursor !== undefined) {
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
