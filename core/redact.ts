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
 * The prefix of the keys the harness invents to be refused (contracts/auth.spec.ts): random per
 * run, never anybody's credential, so they are shown as they were sent and a repro replays the
 * very same request. Registered secrets are masked before this exception applies.
 */
export const BOGUS_KEY_PREFIX = 'sk_harness_invalid_';
const SHAPES: Array<[RegExp, string]> = [
  // A bearer token, but not an RFC 6750 challenge parameter (`Bearer realm="v1"`) nor a key the
  // harness invented to be refused (BOGUS_KEY_PREFIX).
  [
    new RegExp(`(Bearer\\s+)(?![A-Za-z_]+=")(?!${BOGUS_KEY_PREFIX})[A-Za-z0-9._~+/=-]+`, 'gi'),
    '$1[REDACTED]',
  ],
  [
    /((?:x-service-signature|service-signature)\s*[:=]\s*(?:sha256=)?)[0-9a-fA-F]{16,}/gi,
    '$1[REDACTED]',
  ],
  // Any other value of a signature-named header or field with a digest in it, whatever its
  // prefix (`rha256=`, `sha1=`, `SHA256=`) or header name (`X-Hub-Signature-256`): a spoiled
  // signature is still computed with the secret, often one bit away from a valid one.
  [
    /((?:[\w-]*signature[\w-]*)"?\s*[:=]\s*"?)[^\s"',;]*?[0-9a-fA-F]{16,}[^\s"',;]*/gi,
    '$1[REDACTED]',
  ],
  [/((?:x-admin-token|admin[_-]?token)\s*[:=]\s*)\S+/gi, '$1[REDACTED]'],
];

/** Returns `text` with every registered secret and every secret-shaped token masked. */
export function redact(text: string, extra: readonly string[] = []): string {
  let out = text;
  const all = [...registered.keys(), ...extra.filter((s) => s && s.length >= 6)];
  // Longest first, so a secret containing another is masked whole.
  all.sort((a, b) => b.length - a.length);
  for (const s of all) out = out.split(s).join('[REDACTED]');
  for (const [re, rep] of SHAPES) out = out.replace(re, rep);
  return out;
}

/**
 * Deep-redacts a JSON-serialisable value: each string inside it (and each key) on its own, so a
 * mask never runs across JSON syntax — a ticket subject `X-Admin-Token: x` on a long-lived staging
 * once swallowed the rest of the serialised document and made it unparseable. A string value is
 * also read with its key before it (`"x-service-signature": "sha256=…"` is a signature header).
 */
export function redactValue<T>(value: T, extra: readonly string[] = []): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  return JSON.parse(text, (_k, v: unknown) => {
    if (typeof v === 'string') return redact(v, extra);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      out[redact(k, extra)] = typeof x === 'string' ? afterKey(k, x, extra) : x;
    return out;
  }) as T;
}

/** `value` redacted as it reads after its key (`key: value`), when that masks more of it. */
function afterKey(key: string, value: string, extra: readonly string[]): string {
  const head = `${key}: `;
  const joined = redact(`${head}${value}`, extra);
  return joined.startsWith(head) ? joined.slice(head.length) : value;
}
