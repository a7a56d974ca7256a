/** Properties: malformed header values are rejected and nothing ever throws. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SIGNATURE_HEADER, verifyRequest, verifySignature } from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import {
  anyHeaderValueArb,
  headerStringArb,
  hugeHeaderStringArb,
  nonStringHeaderValueArb,
} from '../arbitraries/header-value-arb.ts';
import { secretArb } from '../arbitraries/secret-arb.ts';
import { extendArb, truncateArb } from '../arbitraries/signature-mutation-arb.ts';
import { oracleValue } from './oracle.ts';
import { rejects } from './policy.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

ruleForEachForm('a truncated value is rejected', rejects(truncateArb));
ruleForEachForm('an extended value is rejected', rejects(extendArb));

ruleForEachForm(
  'an arbitrary string is rejected unless it is the canonical value',
  (form) =>
    fc.property(secretArb(), bodyArb({ big: false }), headerStringArb(), (secret, body, value) => {
      const expected = value === oracleValue(form, secret, body);
      assert.equal(verifySignature(form, secret, body, value), expected);
    }),
  { numRuns: 300 },
);

/** Every value `arb` draws is rejected (false), never thrown on. */
const rejectsValues = (arb: () => fc.Arbitrary<unknown>) => (form: 'prefixed' | 'plain') =>
  fc.property(secretArb(), bodyArb({ big: false }), arb(), (secret, body, value) => {
    assert.equal(verifySignature(form, secret, body, value), false);
  });

ruleForEachForm(
  'a non-string header value is rejected without throwing',
  rejectsValues(nonStringHeaderValueArb),
);

ruleForEachForm(
  'a huge header value is rejected without throwing',
  rejectsValues(hugeHeaderStringArb),
  { numRuns: 10 },
);

ruleForEachForm(
  'verification never throws, whatever it is given',
  (form) => {
    const anything = fc.oneof(fc.anything(), secretArb(), bodyArb({ big: false }));
    return fc.property(
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
    );
  },
  { numRuns: 200 },
);
