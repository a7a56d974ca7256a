/** Properties: what must verify, and that the two header forms say the same thing. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SIGNATURE_HEADER,
  signatureHeaders,
  signatureValue,
  verifyRequest,
  verifySignature,
} from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import { secretArb } from '../arbitraries/secret-arb.ts';
import { signatureMutationArb, spoilCanonical } from '../arbitraries/signature-mutation-arb.ts';
import { oracleValue } from './oracle.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

ruleForEachForm('a valid signature verifies', (form) =>
  fc.property(secretArb(), bodyArb(), (secret, body) => {
    assert.equal(verifySignature(form, secret, body, signatureValue(form, secret, body)), true);
  }),
);

ruleForEachForm('signing produces the canonical lowercase value', (form) => {
  const shape = form === 'prefixed' ? /^sha256=[0-9a-f]{64}$/ : /^[0-9a-f]{64}$/;
  return fc.property(secretArb(), bodyArb(), (secret, body) => {
    const value = signatureValue(form, secret, body);
    assert.match(value, shape);
    assert.equal(value, oracleValue(form, secret, body));
  });
});

ruleForEachForm('the two forms agree on every candidate', (form) => {
  const other = form === 'prefixed' ? 'plain' : 'prefixed';
  return fc.property(
    secretArb(),
    bodyArb({ big: false }),
    signatureMutationArb(),
    fc.boolean(),
    (secret, body, m, keep) => {
      const { canonical, value: spoiled } = spoilCanonical(m, { form, secret, body });
      const value = keep ? canonical : spoiled;
      // The same digest text in the other form's spelling.
      const translated =
        form === 'prefixed'
          ? value.startsWith('sha256=')
            ? value.slice(7)
            : undefined
          : `sha256=${value}`;
      fc.pre(translated !== undefined);
      assert.equal(
        verifySignature(form, secret, body, value),
        verifySignature(other, secret, body, translated),
      );
    },
  );
});

ruleForEachForm('a request signed in one form alone authenticates', (form) =>
  fc.property(secretArb(), bodyArb(), (secret, body) => {
    assert.equal(verifyRequest(secret, body, signatureHeaders(form, secret, body)), true);
  }),
);

ruleForEachForm('header names match without regard to case', (form) =>
  fc.property(
    secretArb(),
    bodyArb({ big: false }),
    fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
    (secret, body, upper) => {
      const name = [...SIGNATURE_HEADER[form]]
        .map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase()))
        .join('');
      const headers = { [name]: signatureValue(form, secret, body) };
      assert.equal(verifyRequest(secret, body, headers), true);
    },
  ),
);
