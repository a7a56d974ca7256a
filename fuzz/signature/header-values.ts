/** Properties: malformed header values are rejected and nothing ever throws. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SIGNATURE_HEADER,
  type SignatureForm,
  verifyRequest,
  verifySignature,
} from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import {
  anyHeaderValueArb,
  headerStringArb,
  hugeHeaderStringArb,
  nonStringHeaderValueArb,
} from '../arbitraries/header-value-arb.ts';
import { secretArb } from '../arbitraries/secret-arb.ts';
import {
  extendArb,
  type SignatureMutation,
  spoilCanonical,
  truncateArb,
} from '../arbitraries/signature-mutation-arb.ts';
import { fcParams } from '../shared/seed.ts';
import { oracleValue } from './oracle.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

/** A canonical value spoiled by a mutation drawn from `arb` is rejected. */
const rejects = (arb: () => fc.Arbitrary<SignatureMutation>) => (form: SignatureForm) =>
  fc.assert(
    fc.property(secretArb(), bodyArb(), arb(), (secret, body, m) => {
      const { value } = spoilCanonical(m, { form, secret, body });
      assert.equal(verifySignature(form, secret, body, value), false);
    }),
    fcParams(),
  );

ruleForEachForm('a truncated value is rejected', rejects(truncateArb));
ruleForEachForm('an extended value is rejected', rejects(extendArb));

ruleForEachForm('an arbitrary string is rejected unless it is the canonical value', (form) => {
  fc.assert(
    fc.property(secretArb(), bodyArb({ big: false }), headerStringArb(), (secret, body, value) => {
      const expected = value === oracleValue(form, secret, body);
      assert.equal(verifySignature(form, secret, body, value), expected);
    }),
    fcParams({ numRuns: 300 }),
  );
});

ruleForEachForm('a non-string header value is rejected without throwing', (form) => {
  fc.assert(
    fc.property(
      secretArb(),
      bodyArb({ big: false }),
      nonStringHeaderValueArb(),
      (secret, body, value) => {
        assert.equal(verifySignature(form, secret, body, value), false);
      },
    ),
    fcParams(),
  );
});

ruleForEachForm('a huge header value is rejected without throwing', (form) => {
  fc.assert(
    fc.property(
      secretArb(),
      bodyArb({ big: false }),
      hugeHeaderStringArb(),
      (secret, body, value) => {
        assert.equal(verifySignature(form, secret, body, value), false);
      },
    ),
    fcParams({ numRuns: 10 }),
  );
});

ruleForEachForm('verification never throws, whatever it is given', (form) => {
  const anything = fc.oneof(fc.anything(), secretArb(), bodyArb({ big: false }));
  fc.assert(
    fc.property(
      anything,
      anything,
      anyHeaderValueArb(),
      fc.anything(),
      fc.boolean(),
      (secret, body, value, other, wrap) => {
        assert.equal(typeof verifySignature(form, secret, body, value), 'boolean');
        const headers = wrap ? { [SIGNATURE_HEADER[form]]: value } : other;
        assert.equal(typeof verifyRequest(secret, body, headers), 'boolean');
      },
    ),
    fcParams({ numRuns: 200 }),
  );
});
