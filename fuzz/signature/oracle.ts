import { createHmac } from 'node:crypto';
import type { SignatureForm } from '../../core/signature/index.ts';

/**
 * The canonical header value computed independently of `core/signature` (straight from
 * `node:crypto`), so properties do not check the module against itself.
 */
export function oracleValue(
  form: SignatureForm,
  secret: string | Uint8Array,
  body: Uint8Array,
): string {
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  return form === 'prefixed' ? `sha256=${hex}` : hex;
}
