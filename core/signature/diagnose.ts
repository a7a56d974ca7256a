/**
 * Why a signature value is not the documented one for the received bytes: the mistakes senders
 * make (uppercase hex, a missing or extra prefix, signing a re-serialisation of the JSON, a wrong
 * key), so a report says what the sender got wrong, not only that it did.
 */
import { SIGNATURE_PREFIX, type SignatureForm } from './forms.ts';
import { signatureHex } from './sign.ts';

/** Byte strings a sender that signs a parsed-and-reserialised body would have signed. */
function reserialisations(text: string): string[] {
  // A body JSON.stringify cannot write (nested past the stack) has no such re-serialisation.
  try {
    const value: unknown = JSON.parse(text);
    return [
      JSON.stringify(value),
      JSON.stringify(value, null, 1),
      JSON.stringify(value, null, 2),
      JSON.stringify(value, null, '\t'),
    ];
  } catch {
    return [];
  }
}

/** Why `value` is not the canonical `form` signature of `raw` under `secret`. */
export function diagnoseSignature(
  form: SignatureForm,
  secret: string,
  raw: Uint8Array,
  value: string,
): string {
  const hex = signatureHex(secret, raw);
  const canonical = form === 'prefixed' ? SIGNATURE_PREFIX + hex : hex;
  const lower = value.toLowerCase();
  if (value.includes(', '))
    return 'the header is present more than once (or holds a list of values)';
  if (lower === canonical) return 'uppercase hex; the documented value is lowercase hex';
  if (form === 'prefixed' && lower === hex)
    return 'the sha256= prefix is missing; the hex itself is right';
  if (form === 'plain' && lower.endsWith(hex) && lower !== hex)
    return `a prefix ${JSON.stringify(value.slice(0, value.length - hex.length))} before the hex; the plain form has none`;
  const bare = form === 'prefixed' && lower.startsWith(SIGNATURE_PREFIX) ? lower.slice(7) : lower;
  const received = Buffer.from(raw).toString('utf8');
  for (const text of reserialisations(received)) {
    if (text !== received && signatureHex(secret, text) === bare)
      return 'it signs a re-serialisation of the JSON, not the bytes that were sent';
  }
  if (/^[0-9a-f]{64}$/.test(bare))
    return 'well-formed, but not the HMAC-SHA256 of the received bytes under the endpoint secret (a wrong secret, or other bytes signed)';
  return `malformed: ${value.length} characters, not ${form === 'prefixed' ? 'sha256= followed by ' : ''}64 lowercase hex digits`;
}
