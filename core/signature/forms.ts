/**
 * The two documented signature header forms (service docs, "Signature"; which one a delivery
 * carries is gap U15, so a receiver must be ready for either or both).
 */

/** `prefixed`: `X-Service-Signature: sha256=<hex>`; `plain`: `service-signature: <hex>`. */
export type SignatureForm = 'prefixed' | 'plain';

export const SIGNATURE_FORMS: readonly SignatureForm[] = ['prefixed', 'plain'];

/** Header names as documented. HTTP names are case-insensitive; lookups here ignore case. */
export const SIGNATURE_HEADER: Readonly<Record<SignatureForm, string>> = {
  prefixed: 'X-Service-Signature',
  plain: 'service-signature',
};

/** The only prefix the documented prefixed form carries. */
export const SIGNATURE_PREFIX = 'sha256=';
