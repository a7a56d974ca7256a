/**
 * The two documented signature header forms (service docs, "Signature"; which one a delivery
 * carries is gap U15, so a receiver must be ready for either or both).
 */

/** `prefixed`: `X-Service-Signature: sha256=<hex>`; `plain`: `service-signature: <hex>`. */
export type SignatureForm = 'prefixed' | 'plain';

export const SIGNATURE_FORMS: readonly SignatureForm[] = ['prefixed', 'plain'];

/** The header(s) an endpoint's deliveries carry: one form, or `both`. */
export type DeliveryForm = SignatureForm | 'both';

/** The forms an endpoint can be set up with (the admin surface, the reference deployment). */
export const DELIVERY_FORMS: readonly DeliveryForm[] = ['prefixed', 'plain', 'both'];

/**
 * What an endpoint was configured to receive: a delivery form, or `unknown` when a dashboard
 * does not say (U15): whichever headers arrive must verify, and at least one must.
 */
export type EndpointForm = DeliveryForm | 'unknown';

/** Header names as documented. HTTP names are case-insensitive; lookups here ignore case. */
export const SIGNATURE_HEADER: Readonly<Record<SignatureForm, string>> = {
  prefixed: 'X-Service-Signature',
  plain: 'service-signature',
};

/** The form whose documented header `name` (any case) is, if it is one. */
export const formOfHeader = (name: string): SignatureForm | undefined =>
  SIGNATURE_FORMS.find((f) => SIGNATURE_HEADER[f].toLowerCase() === name.toLowerCase());

/** The only prefix the documented prefixed form carries. */
export const SIGNATURE_PREFIX = 'sha256=';
