import { createHmac } from 'node:crypto';
import { SIGNATURE_HEADER, SIGNATURE_PREFIX, type SignatureForm } from './forms.ts';

/** A key as the service uses it: a string is keyed by its UTF-8 bytes, like `createHmac`. */
export type SignatureSecret = string | Uint8Array;

/**
 * Lowercase hex HMAC-SHA256 of `body` keyed by `secret`. A string body is signed as its UTF-8
 * bytes; pass the exact bytes on the wire whenever you have them.
 *
 * Throws on an empty secret: the docs sign only when a secret is set, so signing with none is
 * a harness bug, not data.
 */
export function signatureHex(secret: SignatureSecret, body: Uint8Array | string): string {
  if (secret.length === 0) throw new TypeError('signature: the secret must not be empty');
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The header value for `form`: `sha256=<hex>` (prefixed) or `<hex>` (plain). */
export function signatureValue(
  form: SignatureForm,
  secret: SignatureSecret,
  body: Uint8Array | string,
): string {
  const hex = signatureHex(secret, body);
  return form === 'prefixed' ? SIGNATURE_PREFIX + hex : hex;
}

/**
 * Signature header(s) for a delivery in the given form(s), keyed by the documented names.
 * `both` sends both headers, as an endpoint configured for both forms would (U15).
 */
export function signatureHeaders(
  forms: SignatureForm | 'both',
  secret: SignatureSecret,
  body: Uint8Array | string,
): Record<string, string> {
  const hex = signatureHex(secret, body);
  const out: Record<string, string> = {};
  if (forms === 'prefixed' || forms === 'both')
    out[SIGNATURE_HEADER.prefixed] = SIGNATURE_PREFIX + hex;
  if (forms === 'plain' || forms === 'both') out[SIGNATURE_HEADER.plain] = hex;
  return out;
}
