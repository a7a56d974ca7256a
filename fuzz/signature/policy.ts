/** Properties: the documented strict policy for non-canonical input (core/signature/README.md). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SIGNATURE_HEADER,
  type SignatureForm,
  signatureHeaders,
  signatureValue,
  verifyRequest,
  verifySignature,
} from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import { secretArb } from '../arbitraries/secret-arb.ts';
import {
  prefixMismatchArb,
  type SignatureMutation,
  sha1Arb,
  signatureMutationArb,
  spoilCanonical,
  uppercaseArb,
  whitespaceArb,
} from '../arbitraries/signature-mutation-arb.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

/**
 * A canonical value spoiled by a mutation drawn from `arb` is rejected (a draw that leaves it
 * canonical is skipped).
 */
export const rejects = (arb: () => fc.Arbitrary<SignatureMutation>) => (form: SignatureForm) =>
  fc.property(secretArb(), bodyArb(), arb(), (secret, body, m) => {
    const { canonical, value } = spoilCanonical(m, { form, secret, body });
    fc.pre(value !== canonical);
    assert.equal(verifySignature(form, secret, body, value), false);
  });

ruleForEachForm('uppercase hex is rejected', rejects(uppercaseArb));
ruleForEachForm('a prefix that does not match the form is rejected', rejects(prefixMismatchArb));
ruleForEachForm('sha1 signatures are rejected', rejects(sha1Arb));
ruleForEachForm('surrounding whitespace is rejected', rejects(whitespaceArb));

ruleForEachForm('a duplicated header is rejected even when both copies are valid', (form) =>
  fc.property(secretArb(), bodyArb({ big: false }), fc.boolean(), (secret, body, asArray) => {
    const value = signatureValue(form, secret, body);
    const name = SIGNATURE_HEADER[form];
    // Node would join the copies ("v, v"); other frameworks hand over an array or keep both names.
    const headers = asArray
      ? { [name.toLowerCase()]: [value, value] }
      : { [name.toLowerCase()]: value, [name.toUpperCase()]: value };
    assert.equal(verifyRequest(secret, body, headers), false);
    assert.equal(verifyRequest(secret, body, { [name]: `${value}, ${value}` }), false);
  }),
);

ruleForEachForm('with both headers present each must verify', (form) => {
  const other = form === 'prefixed' ? 'plain' : 'prefixed';
  return fc.property(
    secretArb(),
    bodyArb({ big: false }),
    signatureMutationArb(),
    (secret, body, m) => {
      const headers = signatureHeaders('both', secret, body);
      assert.equal(verifyRequest(secret, body, headers), true);
      const { canonical, value: spoiled } = spoilCanonical(m, { form, secret, body });
      fc.pre(spoiled !== canonical);
      headers[SIGNATURE_HEADER[form]] = spoiled;
      // The other header is still valid, yet the request must fail.
      assert.equal(verifySignature(other, secret, body, headers[SIGNATURE_HEADER[other]]), true);
      assert.equal(verifyRequest(secret, body, headers), false);
    },
  );
});

ruleForEachForm('a request with no signature header is rejected', (form) =>
  fc.property(
    secretArb(),
    bodyArb({ big: false }),
    fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 80 })),
    (secret, body, headers) => {
      for (const name of Object.keys(headers)) {
        if (/^(x-)?service-signature$/i.test(name)) delete headers[name];
      }
      // The valid value under a name that is not the documented one does not count.
      headers[`${SIGNATURE_HEADER[form]}-v2`] = signatureValue(form, secret, body);
      assert.equal(verifyRequest(secret, body, headers), false);
    },
  ),
);

ruleForEachForm('an empty secret never verifies', (form) =>
  fc.property(bodyArb({ big: false }), fc.constantFrom('', new Uint8Array(0)), (body, empty) => {
    // What an HMAC with an empty key would produce: the check must not fall for it.
    const { value } = spoilCanonical(
      { kind: 'wrong-secret', secret: '' },
      { form, secret: 'x', body },
    );
    assert.equal(verifySignature(form, empty, body, value), false);
  }),
);
