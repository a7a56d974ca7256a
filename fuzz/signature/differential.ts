/**
 * Differential properties: the module agrees with independent implementations wherever they are
 * comparable. `@octokit/webhooks-methods` (Node build) takes string payloads and string secrets
 * and speaks only the prefixed form; the plain form is compared by adding the prefix to the
 * candidate, which is exactly the translation between the two documented forms.
 */
import assert from 'node:assert/strict';
import { createHmac, webcrypto } from 'node:crypto';
import { verify as octokitVerify, sign as octokitSign } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { signatureHex, signatureValue, verifySignature } from '../../core/signature/index.ts';
import { bodyArb } from '../arbitraries/body-arb.ts';
import { secretArb, stringSecretArb } from '../arbitraries/secret-arb.ts';
import {
  applySignatureMutation,
  signatureMutationArb,
} from '../arbitraries/signature-mutation-arb.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

const CANONICAL = { prefixed: /^sha256=[0-9a-f]{64}$/, plain: /^[0-9a-f]{64}$/ } as const;

/** A candidate: the canonical value (half the time) or a spoiled one. */
const candidateArb = () => fc.tuple(fc.boolean(), signatureMutationArb());

ruleForEachForm('agrees with node:crypto', (form) =>
  fc.property(secretArb(), bodyArb(), candidateArb(), (secret, body, [keep, m]) => {
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    assert.equal(signatureHex(secret, body), expected);
    const canonical = signatureValue(form, secret, body);
    const value = keep ? canonical : applySignatureMutation(canonical, m, { form, secret, body });
    const oracle = value === (form === 'prefixed' ? `sha256=${expected}` : expected);
    assert.equal(verifySignature(form, secret, body, value), oracle);
  }),
);

ruleForEachForm('agrees with WebCrypto', (form) =>
  fc.asyncProperty(secretArb(), bodyArb(), candidateArb(), async (secret, body, [keep, m]) => {
    const keyBytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
    const key = await webcrypto.subtle.importKey(
      'raw',
      keyBytes,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    const mac = Buffer.from(await webcrypto.subtle.sign('HMAC', key, body)).toString('hex');
    assert.equal(signatureHex(secret, body), mac);
    const canonical = signatureValue(form, secret, body);
    const value = keep ? canonical : applySignatureMutation(canonical, m, { form, secret, body });
    // WebCrypto verifies digest bytes, so it is comparable only for canonically spelled values.
    fc.pre(CANONICAL[form].test(value));
    const digest = Buffer.from(value.slice(form === 'prefixed' ? 7 : 0), 'hex');
    const theirs = await webcrypto.subtle.verify('HMAC', key, digest, body);
    assert.equal(verifySignature(form, secret, body, value), theirs);
  }),
);

ruleForEachForm('agrees with @octokit/webhooks-methods', (form) =>
  fc.asyncProperty(
    stringSecretArb(),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }),
    candidateArb(),
    async (secret, payload, [keep, m]) => {
      const body = new Uint8Array(Buffer.from(payload, 'utf8'));
      assert.equal(await octokitSign(secret, payload), signatureValue('prefixed', secret, body));
      const canonical = signatureValue(form, secret, body);
      const value = keep ? canonical : applySignatureMutation(canonical, m, { form, secret, body });
      const asPrefixed = form === 'prefixed' ? value : `sha256=${value}`;
      fc.pre(asPrefixed !== ''); // octokit throws on an empty signature
      const theirs = await octokitVerify(secret, payload, asPrefixed);
      assert.equal(verifySignature(form, secret, body, value), theirs);
    },
  ),
);
