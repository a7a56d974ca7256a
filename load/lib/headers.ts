/**
 * Rate-limit headers read from any engine's header bag. k6 canonicalises names
 * (`X-Ratelimit-Limit`), undici lower-cases them and a real proxy may do either, so every
 * lookup is case-insensitive.
 */

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export function getHeader(headers: HeaderBag, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== want) continue;
    const v = headers[key];
    if (v === undefined) return undefined;
    return typeof v === 'string' ? v : v.join(', ');
  }
  return undefined;
}

/** The headers the load checks read, raw; parsing happens where the meaning is decided. */
export interface RateHeaders {
  limit?: string | undefined;
  remaining?: string | undefined;
  reset?: string | undefined;
  retryAfter?: string | undefined;
  date?: string | undefined;
}

export function rateHeaders(headers: HeaderBag): RateHeaders {
  return {
    limit: getHeader(headers, 'x-ratelimit-limit'),
    remaining: getHeader(headers, 'x-ratelimit-remaining'),
    reset: getHeader(headers, 'x-ratelimit-reset'),
    retryAfter: getHeader(headers, 'retry-after'),
    date: getHeader(headers, 'date'),
  };
}

/** A strict non-negative integer, or undefined: "12abc" and "1.5" are not integers. */
export function parseIntStrict(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const s = v.trim();
  return /^-?\d+$/.test(s) ? Number(s) : undefined;
}

/** HTTP-date (IMF-fixdate and the obsolete forms Date.parse accepts) to epoch seconds. */
export function parseHttpDate(v: string | undefined): number | undefined {
  if (v === undefined || /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/**
 * `Retry-After` in seconds: delta-seconds, or an HTTP-date taken relative to the response's own
 * `Date` (never the local clock, which may not run at the server's speed).
 */
export function retryAfterSeconds(h: RateHeaders): number | undefined {
  const n = parseIntStrict(h.retryAfter);
  if (n !== undefined) return n >= 0 ? n : undefined;
  const at = parseHttpDate(h.retryAfter);
  const now = parseHttpDate(h.date);
  if (at === undefined || now === undefined) return undefined;
  return Math.max(0, at - now);
}
