import { signatureHex } from '../../core/signature/sign.ts';
import {
  type DeliveryForm,
  SIGNATURE_HEADER,
  SIGNATURE_PREFIX,
} from '../../core/signature/forms.ts';
import type { WebhookFaults } from './types.ts';

/**
 * The signature header(s) of one delivery. The contract: HMAC-SHA256 over the exact bytes sent,
 * keyed by the endpoint secret, lowercase hex; no header at all without a secret. Each fault
 * bends exactly one of those rules.
 */
export function signatureHeaders(
  form: DeliveryForm,
  secret: string | undefined,
  body: string | Uint8Array,
  faults: WebhookFaults = {},
): Record<string, string> {
  if (!secret) return {};
  // The reserialised form is what a service signing a parsed object instead of its wire bytes
  // would produce: same JSON value, different bytes.
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const signed = faults.signatureReserialized ? JSON.stringify(JSON.parse(text), null, 1) : body;
  const key = faults.signatureWrongSecret ? `${secret}:rotated-out` : secret;
  let hex = signatureHex(key, signed);
  if (faults.signatureUppercase) hex = hex.toUpperCase();
  const out: Record<string, string> = {};
  if (form === 'prefixed' || form === 'both')
    out[SIGNATURE_HEADER.prefixed] = faults.prefixMissing ? hex : SIGNATURE_PREFIX + hex;
  if (form === 'plain' || form === 'both') out[SIGNATURE_HEADER.plain] = hex;
  return out;
}
