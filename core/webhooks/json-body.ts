/**
 * A delivery body read as the docs promise it: `Content-Type: application/json`, and JSON is
 * UTF-8 (RFC 8259 §8.1). The lenient reading (`deliveryJson`, capture-receiver.ts) routes a
 * delivery by its event and ticket whatever its bytes; this strict one is what the rules judge,
 * so a body encoded as Latin-1 (`Zoë` as the single byte 0xEB) is caught instead of read as
 * `Zo\uFFFD`.
 */

export type JsonBody = { ok: true; json: unknown } | { ok: false; problem: string };

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8 either.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += n + 1;
  }
  return -1;
}

/** The bytes around `at`, printable: ASCII as is, every other byte as \xHH. */
function around(b: Uint8Array, at: number): string {
  const from = Math.max(0, at - 24);
  const to = Math.min(b.length, at + 24);
  let s = '';
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return `${from > 0 ? '…' : ''}${s}${to < b.length ? '…' : ''}`;
}

/** The body as UTF-8 JSON, or why it is not (the first invalid byte, with its neighbours). */
export function utf8JsonBody(raw: Uint8Array): JsonBody {
  const bad = firstInvalidUtf8(raw);
  if (bad >= 0) {
    const byte = raw[bad]!.toString(16).toUpperCase().padStart(2, '0');
    return {
      ok: false,
      problem: `a body that is not valid UTF-8: byte 0x${byte} at offset ${bad} (${around(raw, bad)})`,
    };
  }
  try {
    // A leading BOM is tolerated (RFC 8259 lets parsers ignore it); TextDecoder drops it.
    return { ok: true, json: JSON.parse(new TextDecoder('utf-8').decode(raw)) };
  } catch (e) {
    return { ok: false, problem: `a body that is not JSON (${(e as Error).message})` };
  }
}
