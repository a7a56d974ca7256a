/**
 * Redaction of secrets from everything the harness writes: console, reports, traces, repros.
 *
 * Secrets are registered once (config loading registers every key and webhook secret) and every
 * writer passes its text through `redact`. Bearer tokens and signature-looking values are also
 * masked by shape, so a secret that was never registered (a key typed on the command line of a
 * repro, say) still does not leak.
 */

const registered = new Set<string>();

/** Marks a value as secret for the rest of the process. Values shorter than 6 chars are ignored: masking them would mangle ordinary text. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 6) registered.add(value);
}
const SHAPES: Array<[RegExp, string]> = [
  // A bearer token, but not an RFC 6750 challenge parameter (`Bearer realm="v1"`).
  [/(Bearer\s+)(?![A-Za-z_]+=")[A-Za-z0-9._~+/=-]+/gi, '$1[REDACTED]'],
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
  const all = [...registered, ...extra.filter((s) => s && s.length >= 6)];
  // Longest first, so a secret containing another is masked whole.
  all.sort((a, b) => b.length - a.length);
  for (const s of all) out = out.split(s).join('[REDACTED]');
  for (const [re, rep] of SHAPES) out = out.replace(re, rep);
  return out;
}

/** Deep-redacts a JSON-serialisable value (strings inside objects and arrays). */
export function redactValue<T>(value: T, extra: readonly string[] = []): T {
  return JSON.parse(redact(JSON.stringify(value), extra)) as T;
}
