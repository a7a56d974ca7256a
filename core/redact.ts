/**
 * Redaction of secrets from everything the harness writes: console, reports, traces, repros.
 *
 * Secrets are registered once (config loading registers every key and webhook secret) and every
 * writer passes its text through `redact`. Bearer tokens and signature-looking values are also
 * masked by shape, so a secret that was never registered (a key typed on the command line of a
 * repro, say) still does not leak.
 */

/** Each registered secret → the environment variable that holds it, when one does. */
const registered = new Map<string, string | undefined>();

/**
 * Marks a value as secret for the rest of the process. Values shorter than 6 chars are ignored:
 * masking them would mangle ordinary text. `variable` names the environment variable the user
 * holds it in (HARNESS_API_KEY, …): a repro then says `$HARNESS_API_KEY` instead of a mask, so it
 * runs as pasted. The first name given for a value stays.
 */
export function registerSecret(value: string | undefined | null, variable?: string): void {
  if (!value || value.length < 6) return;
  if (!registered.get(value)) registered.set(value, variable);
}

/** The variable holding `value` (see registerSecret); undefined when unnamed or not a secret. */
export function secretVariable(value: string): string | undefined {
  return registered.get(value);
}

/** The registered secrets that occur in `text`, longest first (one may contain another). */
export function secretsIn(text: string): string[] {
  return [...registered.keys()].filter((s) => text.includes(s)).sort((a, b) => b.length - a.length);
}

/**
 * The prefix of the keys the harness invents to be refused (the rule matrix's unknown-key
 * sends, contracts/rule-matrix.spec.ts): random per
 * run, never anybody's credential, so they are shown as they were sent and a repro replays the
 * very same request. Registered secrets are masked before this exception applies.
 */
export const BOGUS_KEY_PREFIX = 'sk_harness_invalid_';
const BOGUS_LOWER = BOGUS_KEY_PREFIX.toLowerCase();

/** Whether a bearer token is one the harness invented to be refused (any case: it is a prefix). */
export function isInventedKey(token: string): boolean {
  return token.toLowerCase().startsWith(BOGUS_LOWER);
}

/*
 * Every pass below runs in time linear in the text, whatever the text: redaction sees everything
 * a target sends (a 1 MiB one-word subject in every list answer of a long-lived staging), so no
 * pattern may backtrack over an unbounded run. Each regex starts at a literal keyword and ends
 * in a greedy run with nothing after it; what a lookahead would decide is decided in a
 * callback on the match. The signature-named value, whose name may start anywhere in a word and
 * whose digest may sit anywhere in the value, is a hand-written scan (maskSignatureValues).
 */

/** A bearer token, unless it is an RFC 6750 challenge parameter or a key invented to be refused. */
const BEARER = /(Bearer\s+)([A-Za-z0-9._~+/=-]+)/gi;
const CHALLENGE_PARAM = /^[A-Za-z_]+=$/;

function maskBearer(text: string): string {
  const re = new RegExp(BEARER.source, BEARER.flags);
  let out = '';
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const [whole, head, token] = m as unknown as [string, string, string];
    // `Bearer realm="v1"`: the token run stops at the quote, so it reads `realm=` followed by `"`.
    const challenge = CHALLENGE_PARAM.test(token) && text[m.index + whole.length] === '"';
    if (challenge || isInventedKey(token)) {
      // Kept — and looked into, as a lookahead would have been: a token that ends in `…Bearer`
      // before whitespace starts another bearer phrase (`Bearer sk_harness_invalid_xBearer	key`).
      // Only one can start inside a token (it needs the whitespace that ends the token), so
      // each character is read at most twice: still linear.
      re.lastIndex = m.index + 1;
      continue;
    }
    out += `${text.slice(last, m.index)}${head}[REDACTED]`;
    last = m.index + whole.length;
  }
  return out + text.slice(last);
}

const SERVICE_SIGNATURE =
  /((?:x-service-signature|service-signature)\s*[:=]\s*(?:sha256=)?)[0-9a-fA-F]{16,}/gi;
const ADMIN_TOKEN = /((?:x-admin-token|admin[_-]?token)\s*[:=]\s*)\S+/gi;

/** `[\w-]`: a character of a header or field name. */
function isNameChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45
  );
}

/** `\s` of a JavaScript regex, exactly. */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** What ends a value: `\s " ' , ;`. */
const isValueEnd = (c: number) => isSpace(c) || c === 34 || c === 39 || c === 44 || c === 59;

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

const SIGNATURE_WORD = /signature/gi;

/**
 * Any other value of a signature-named header or field with a digest in it, whatever its prefix
 * (`rha256=`, `sha1=`, `SHA256=`) or header name (`X-Hub-Signature-256`): a spoiled signature is
 * still computed with the secret, often one bit away from a valid one. It masks exactly what
 * `((?:[\w-]*signature[\w-]*)"?\s*[:=]\s*"?)[^\s"',;]*?[0-9a-fA-F]{16,}[^\s"',;]*` (flags gi)
 * replaced with `$1[REDACTED]` did — test/harness/redact-linear.test.ts holds it to that regex on
 * short texts — but in one pass: a name is the word around `signature`, its value the run up to the next
 * `\s " ' , ;`, masked when 16 hex digits in a row sit in it. A failed name moves on past its word,
 * so a value holding more signature-named words is scanned once (the run's last digest is kept).
 */
export function maskSignatureValues(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let cursor = 0;
  // The value run last scanned: [runFrom, runEnd), and where its last 16-hex-digit streak starts.
  let runFrom = -1;
  let runEnd = -1;
  let lastDigest = -1;
  for (;;) {
    SIGNATURE_WORD.lastIndex = cursor;
    const m = SIGNATURE_WORD.exec(text);
    if (!m) break;
    // The word holding it ends at the first non-name character (it starts at or after cursor).
    let end = m.index + m[0].length;
    while (end < n && isNameChar(text.charCodeAt(end))) end++;
    let p = end;
    if (text.charCodeAt(p) === 34) p++;
    while (p < n && isSpace(text.charCodeAt(p))) p++;
    const sep = text.charCodeAt(p);
    if (sep !== 58 && sep !== 61) {
      cursor = end;
      continue;
    }
    p++;
    while (p < n && isSpace(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) === 34) p++;
    if (p >= runEnd) {
      // Values start in increasing order: a run is scanned once, from its first value on.
      runFrom = p;
      lastDigest = -1;
      let streak = 0;
      let i = p;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (isValueEnd(c)) break;
        streak = isHex(c) ? streak + 1 : 0;
        if (streak >= 16) lastDigest = i - 15;
      }
      runEnd = i;
    }
    if (p < runFrom || lastDigest < p) {
      cursor = end;
      continue;
    }
    out += `${text.slice(copied, p)}[REDACTED]`;
    copied = runEnd;
    cursor = runEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Returns `text` with every registered secret and every secret-shaped token masked. */
export function redact(text: string, extra: readonly string[] = []): string {
  let out = text;
  const all = [...registered.keys(), ...extra.filter((s) => s && s.length >= 6)];
  // Longest first, so a secret containing another is masked whole.
  all.sort((a, b) => b.length - a.length);
  for (const s of all) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
  out = maskBearer(out);
  out = out.replace(SERVICE_SIGNATURE, '$1[REDACTED]');
  out = maskSignatureValues(out);
  out = out.replace(ADMIN_TOKEN, '$1[REDACTED]');
  return out;
}

/** Shortest hex run the signature shapes take for a digest. */
const DIGEST_HEX = 16;

/**
 * Where to cut `text` at or before `at` so that the part before the cut, redacted, shows no part
 * of a secret: no registered secret (nor one of `extra`) straddles the cut — half of one would
 * pass redaction — and the cut does not leave the first few digits of a longer hex run (a digest
 * cut to fewer than 16 digits is no longer signature-shaped). Shape-matched tokens need nothing:
 * a cut bearer token or admin token is still masked whole, as is a value with 16 hex digits. A
 * surrogate pair is never split. Linear in the secrets' lengths, not in the text.
 */
export function safeCut(text: string, at: number, extra: readonly string[] = []): number {
  const secrets = [...registered.keys(), ...extra.filter((s) => s && s.length >= 6)];
  let cut = Math.max(0, Math.min(at, text.length));
  for (let moved = true, rounds = 0; moved && rounds < 100; rounds++) {
    moved = false;
    const c = text.charCodeAt(cut - 1);
    if (cut > 0 && cut < text.length && c >= 0xd800 && c <= 0xdbff) {
      cut--;
      moved = true;
    }
    for (const s of secrets) {
      // An occurrence starting in (cut - |s|, cut) runs past the cut.
      const from = Math.max(0, cut - s.length + 1);
      const j = text.slice(from, cut + s.length - 1).indexOf(s);
      if (j >= 0 && from + j < cut) {
        cut = from + j;
        moved = true;
      }
    }
    if (cut < text.length && isHex(text.charCodeAt(cut))) {
      let h = cut;
      while (h > 0 && cut - h < DIGEST_HEX && isHex(text.charCodeAt(h - 1))) h--;
      if (h < cut && cut - h < DIGEST_HEX) {
        cut = h;
        moved = true;
      }
    }
  }
  return cut;
}

/**
 * Deep-redacts a JSON-serialisable value: each key and each string on its own, a string read with
 * its key before it (`"x-service-signature": "sha256=…"` is a signature header), so a mask never
 * runs across JSON syntax. Redacting the serialised text whole did: an admin token's mask runs to
 * the next space, and a ticket subject `… X-Admin-Token: x` on a long-lived staging swallowed the
 * quotes and keys after it — into text that sometimes still parsed, with a field gone. A value
 * JSON cannot write (nested past the stack, cyclic) is written cut at 32 levels; never a throw.
 */
export function redactValue<T>(value: T, extra: readonly string[] = []): T {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = JSON.stringify(value, depthLimited(32));
  }
  if (text === undefined) return value;
  return redactEachString(JSON.parse(text), extra) as T;
}

/** A JSON.stringify replacer that writes what nests deeper than `levels` as a note. */
function depthLimited(levels: number) {
  const depth = new WeakMap<object, number>();
  return function (this: object, _key: string, v: unknown): unknown {
    if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : v;
    const d = depth.get(this) ?? 0;
    if (d >= levels) return `… (nested deeper than ${levels} levels)`;
    depth.set(v, d + 1);
    return v;
  };
}

/** `value` (fresh from JSON.parse) with each key and string redacted in place, without recursion. */
function redactEachString(value: unknown, extra: readonly string[]): unknown {
  const leaf = (key: string, v: string) => {
    const pair = `${JSON.stringify(key)}:${JSON.stringify(v)}`;
    if (redact(pair, extra) === pair) return v;
    const alone = redact(v, extra);
    return alone === v ? '[REDACTED]' : alone;
  };
  const root = { value };
  const stack: object[] = [root];
  while (stack.length > 0) {
    const o = stack.pop() as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = o[k];
      const key = Array.isArray(o) ? k : redact(k, extra);
      const next = typeof v === 'string' ? leaf(k, v) : v;
      if (key !== k) delete o[k];
      o[key] = next;
      if (next !== null && typeof next === 'object') stack.push(next);
    }
  }
  return root.value;
}
