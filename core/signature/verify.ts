/**
 * Strict, constant-time signature verification that never throws.
 *
 * Policy for non-canonical input (one policy, the same for every caller; see README.md):
 * a header value is accepted only if it is byte-for-byte the canonical value the service would
 * send — `sha256=` + 64 lowercase hex digits for the prefixed form, the 64 lowercase hex digits
 * alone for the plain form. Therefore:
 * - uppercase or mixed-case hex is rejected;
 * - the prefixed form without `sha256=` is rejected, and so is the plain form with any prefix;
 * - `sha1=` (or any other algorithm) is rejected;
 * - surrounding or inner whitespace, quotes, commas, a second value are rejected;
 * - a header that is missing, not a string, or present several times (an array, or a name that
 *   appears in more than one letter case) is rejected;
 * - with both headers present, each present header must verify in its own form;
 * - an empty secret or a body that is not bytes never verifies.
 * Why strict: the docs describe exactly one encoding, and every leniency is a second code path
 * that real receivers have got wrong; rejecting costs a legitimate sender nothing.
 *
 * Why constant-time: the expected value is compared with `crypto.timingSafeEqual` after a length
 * check, so the time taken does not reveal how many leading characters of a guess were right.
 * The length of the canonical value is public, so checking it first leaks nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  SIGNATURE_FORMS,
  SIGNATURE_HEADER,
  SIGNATURE_PREFIX,
  type SignatureForm,
} from './forms.ts';
import { type SignatureSecret, signatureValue } from './sign.ts';

const HEX_LENGTH = 64;

function isUsableSecret(secret: unknown): secret is SignatureSecret {
  return (typeof secret === 'string' || secret instanceof Uint8Array) && secret.length > 0;
}

/**
 * True when `value` is exactly the canonical `form` signature of `body` under `secret`.
 * Accepts `unknown` for every argument because header values arrive untyped (undefined, arrays
 * from duplicated headers, whatever a framework produces); anything unexpected is `false`.
 */
export function verifySignature(
  form: SignatureForm,
  secret: unknown,
  body: unknown,
  value: unknown,
): boolean {
  try {
    if (form !== 'prefixed' && form !== 'plain') return false;
    if (typeof value !== 'string' || !isUsableSecret(secret) || !(body instanceof Uint8Array))
      return false;
    const expectedLength = (form === 'prefixed' ? SIGNATURE_PREFIX.length : 0) + HEX_LENGTH;
    // Cheap rejection before encoding: a huge header never gets copied.
    if (value.length !== expectedLength) return false;
    const given = Buffer.from(value, 'utf8');
    const expected = Buffer.from(signatureValue(form, secret, body), 'latin1');
    // A non-ASCII character makes the UTF-8 longer than the string; timingSafeEqual would throw.
    if (given.length !== expected.length) return false;
    return timingSafeEqual(given, expected);
  } catch {
    return false;
  }
}

/**
 * The value of header `name` in Node's `IncomingHttpHeaders`, any plain record, or a WHATWG
 * `Headers`, matched without regard to case. Returns `undefined` when absent,
 * and an array when it is present more than once (an array value, or several keys that differ
 * only in case) so the caller can reject the ambiguity.
 */
export function headerValue(headers: unknown, name: string): unknown {
  if (headers === null || typeof headers !== 'object') return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    // WHATWG Headers joins duplicates with ", ", which can never be a canonical value.
    const v: unknown = getter.call(headers, name);
    return v === null ? undefined : v;
  }
  const wanted = name.toLowerCase();
  const found: unknown[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) found.push((headers as Record<string, unknown>)[key]);
  }
  if (found.length === 0) return undefined;
  return found.length === 1 ? found[0] : found;
}

/** Options of {@link verifyRequest}. */
export interface VerifyRequestOptions {
  /** Forms that may authenticate a request. Default: both. A present header of another form still has to verify. */
  forms?: readonly SignatureForm[];
}

/**
 * True when the request carries at least one signature header of an accepted form and every
 * signature header present (of either form) verifies over `body`, the raw bytes received.
 * Never throws.
 */
export function verifyRequest(
  secret: unknown,
  body: unknown,
  headers: unknown,
  options: VerifyRequestOptions = {},
): boolean {
  try {
    const accepted = options.forms ?? SIGNATURE_FORMS;
    let authenticated = false;
    for (const form of SIGNATURE_FORMS) {
      const value = headerValue(headers, SIGNATURE_HEADER[form]);
      if (value === undefined) continue;
      if (!verifySignature(form, secret, body, value)) return false;
      if (accepted.includes(form)) authenticated = true;
    }
    return authenticated;
  } catch {
    return false;
  }
}
