import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  headerValue,
  signatureHeaders,
  signatureHex,
  signatureValue,
  verifyRequest,
  verifySignature,
} from '../../core/signature/index.ts';

const secret = 'whsec_test_0123456789';
const body = new TextEncoder().encode('{"event":"ticket.created"}');
const hex = createHmac('sha256', secret).update(body).digest('hex');

describe('sign', () => {
  test('both forms carry the lowercase hex HMAC of the raw bytes', () => {
    assert.equal(signatureHex(secret, body), hex);
    assert.equal(signatureValue('prefixed', secret, body), `sha256=${hex}`);
    assert.equal(signatureValue('plain', secret, body), hex);
    assert.deepEqual(signatureHeaders('both', secret, body), {
      'X-Service-Signature': `sha256=${hex}`,
      'service-signature': hex,
    });
  });

  test('signing with an empty secret is misuse', () => {
    assert.throws(() => signatureHex('', body), /secret/);
  });
});

describe('verify: the non-canonical policy table', () => {
  const cases: Array<[string, 'prefixed' | 'plain', unknown, boolean]> = [
    ['canonical prefixed', 'prefixed', `sha256=${hex}`, true],
    ['canonical plain', 'plain', hex, true],
    ['uppercase hex', 'prefixed', `sha256=${hex.toUpperCase()}`, false],
    ['uppercase hex, plain', 'plain', hex.toUpperCase(), false],
    ['uppercase prefix', 'prefixed', `SHA256=${hex}`, false],
    ['missing prefix', 'prefixed', hex, false],
    ['prefix in plain form', 'plain', `sha256=${hex}`, false],
    ['sha1=', 'prefixed', `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`, false],
    ['surrounding whitespace', 'prefixed', ` sha256=${hex} `, false],
    ['trailing newline', 'plain', `${hex}\n`, false],
    ['list of two', 'plain', `${hex}, ${hex}`, false],
    ['array (duplicated header)', 'plain', [hex, hex], false],
    ['undefined', 'plain', undefined, false],
    ['number', 'plain', 42, false],
    ['huge string', 'plain', 'a'.repeat(10_000_000), false],
    ['non-ASCII of the right length', 'plain', `${hex.slice(0, 63)}é`, false],
  ];
  for (const [name, form, value, expected] of cases) {
    test(`${name} → ${expected}`, () => {
      assert.equal(verifySignature(form, secret, body, value), expected);
    });
  }

  test('an empty secret or a non-byte body never verifies', () => {
    assert.equal(verifySignature('plain', '', body, hex), false);
    assert.equal(verifySignature('plain', secret, '{"event":"ticket.created"}', hex), false);
    assert.equal(verifySignature('plain', null, null, null), false);
  });
});

describe('verifyRequest', () => {
  const bad = '0'.repeat(64);
  test('either form alone authenticates', () => {
    assert.equal(verifyRequest(secret, body, { 'x-service-signature': `sha256=${hex}` }), true);
    assert.equal(verifyRequest(secret, body, { 'service-signature': hex }), true);
  });
  test('no signature header → false', () => {
    assert.equal(verifyRequest(secret, body, { 'content-type': 'application/json' }), false);
    assert.equal(verifyRequest(secret, body, undefined), false);
  });
  test('both present: each must verify', () => {
    const both = { 'x-service-signature': `sha256=${hex}`, 'service-signature': hex };
    assert.equal(verifyRequest(secret, body, both), true);
    assert.equal(verifyRequest(secret, body, { ...both, 'service-signature': bad }), false);
    assert.equal(verifyRequest(secret, body, { ...both, 'x-service-signature': bad }), false);
  });
  test('names match without regard to case; the same name twice is a duplicate', () => {
    assert.equal(verifyRequest(secret, body, { 'SERVICE-SIGNATURE': hex }), true);
    assert.deepEqual(
      headerValue({ 'Service-Signature': 'a', 'service-signature': 'b' }, 'service-signature'),
      ['a', 'b'],
    );
    assert.equal(
      verifyRequest(secret, body, { 'Service-Signature': hex, 'service-signature': hex }),
      false,
    );
  });
  test('WHATWG Headers are read too', () => {
    assert.equal(verifyRequest(secret, body, new Headers({ 'service-signature': hex })), true);
    const dup = new Headers();
    dup.append('service-signature', hex);
    dup.append('service-signature', hex);
    assert.equal(verifyRequest(secret, body, dup), false);
  });
  test('forms restricts which form may authenticate alone', () => {
    const plainOnly = { forms: ['plain'] as const };
    assert.equal(
      verifyRequest(secret, body, { 'x-service-signature': `sha256=${hex}` }, plainOnly),
      false,
    );
    assert.equal(verifyRequest(secret, body, { 'service-signature': hex }, plainOnly), true);
  });
});
