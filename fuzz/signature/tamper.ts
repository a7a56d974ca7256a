/** Properties: any change to the body, the signature or the key makes verification fail. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { signatureValue, verifySignature } from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import { distinctSecretsArb, secretArb } from '../arbitraries/secret-arb.ts';
import {
  applySignatureMutation,
  flipBitArb,
  flipDigestBitArb,
  spoilCanonical,
} from '../arbitraries/signature-mutation-arb.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

/** Bodies up to this size get every bit flipped; bigger ones a drawn sample of bits. */
const EXHAUSTIVE_BYTES = 64;

ruleForEachForm(
  'every single-bit flip of the body is rejected',
  (form) =>
    fc.property(
      secretArb(),
      bodyArb().filter((b) => b.length > 0),
      fc.array(fc.nat(), { minLength: 1, maxLength: 32 }),
      (secret, original, sample) => {
        const value = signatureValue(form, secret, original);
        const body = Uint8Array.from(original);
        const bits = body.length * 8;
        const positions =
          body.length <= EXHAUSTIVE_BYTES ? [...Array(bits).keys()] : sample.map((n) => n % bits);
        for (const bit of positions) {
          const i = bit >> 3;
          body[i]! ^= 1 << (bit & 7);
          assert.equal(verifySignature(form, secret, body, value), false, `bit ${bit} flipped`);
          body[i]! ^= 1 << (bit & 7);
        }
      },
    ),
  { numRuns: 60 },
);

ruleForEachForm(
  'every single-bit flip of the header value is rejected',
  (form) =>
    fc.property(secretArb(), bodyArb({ maxLength: 64, big: false }), (secret, body) => {
      const value = signatureValue(form, secret, body);
      for (let bit = 0; bit < value.length * 8; bit++) {
        const flipped = applySignatureMutation(
          value,
          { kind: 'flip-bit', bit },
          { form, secret, body },
        );
        assert.equal(verifySignature(form, secret, body, flipped), false, `bit ${bit} flipped`);
      }
    }),
  { numRuns: 50 },
);

ruleForEachForm(
  'every single-bit flip of the digest is rejected',
  (form) =>
    fc.property(secretArb(), bodyArb({ big: false }), (secret, body) => {
      const value = signatureValue(form, secret, body);
      for (let bit = 0; bit < 256; bit++) {
        const flipped = applySignatureMutation(
          value,
          { kind: 'flip-digest-bit', bit },
          { form, secret, body },
        );
        assert.equal(
          verifySignature(form, secret, body, flipped),
          false,
          `digest bit ${bit} flipped`,
        );
      }
    }),
  { numRuns: 50 },
);

ruleForEachForm('a drawn bit flip anywhere in value or digest is rejected', (form) =>
  fc.property(
    secretArb(),
    bodyArb(),
    fc.oneof(flipBitArb(), flipDigestBitArb()),
    (secret, body, m) => {
      const { value: flipped } = spoilCanonical(m, { form, secret, body });
      assert.equal(verifySignature(form, secret, body, flipped), false);
    },
  ),
);

ruleForEachForm('a signature made with another secret is rejected', (form) =>
  fc.property(distinctSecretsArb(), bodyArb(), ([secret, other], body) => {
    assert.equal(verifySignature(form, secret, body, signatureValue(form, other, body)), false);
  }),
);
