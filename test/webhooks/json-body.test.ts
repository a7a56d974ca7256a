/**
 * The strict reading of a delivery body (core/webhooks/json-body.ts): UTF-8 as RFC 8259 requires,
 * told apart from Latin-1 and every other invalid byte sequence exactly where the platform's own
 * decoder does, with the first bad byte named.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { firstInvalidUtf8, utf8JsonBody } from '../../core/webhooks/json-body.ts';
import { fcParams } from '../../fuzz/shared/seed.ts';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const validByPlatform = (b: Uint8Array) => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('utf8JsonBody', () => {
  test('a customer named with letters outside ASCII and outside the BMP reads back as sent', () => {
    const payload = { customer: { name: 'Zoë Ångström 𠮷田', email: 'zoe@example.com' } };
    assert.deepEqual(utf8JsonBody(Buffer.from(JSON.stringify(payload), 'utf8')), {
      ok: true,
      json: payload,
    });
  });

  test('the same payload encoded as Latin-1 is named by its first bad byte, with its neighbours', () => {
    const raw = Buffer.from(JSON.stringify({ name: 'Zoë' }), 'latin1');
    const r = utf8JsonBody(raw);
    assert.equal(r.ok, false);
    assert.equal(
      !r.ok && r.problem,
      'a body that is not valid UTF-8: byte 0xEB at offset 11 ({"name":"Zo\\xeb"})',
    );
  });

  test('valid UTF-8 that is not JSON, and a tolerated byte-order mark', () => {
    const r = utf8JsonBody(Buffer.from('{"a":'));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.problem : '', /^a body that is not JSON \(/);
    assert.deepEqual(utf8JsonBody(Buffer.from('\uFEFF{"a":1}')), { ok: true, json: { a: 1 } });
  });

  test('overlong forms, surrogates and code points past U+10FFFF are not UTF-8', () => {
    for (const bytes of [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0x80],
    ])
      assert.equal(firstInvalidUtf8(Uint8Array.from(bytes)), 0, bytes.join(','));
  });

  test('agrees with the platform decoder on any bytes, and on any text encoded as UTF-8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        assert.equal(firstInvalidUtf8(b) === -1, validByPlatform(b));
      }),
      fcParams({ numRuns: 500 }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        assert.equal(firstInvalidUtf8(Buffer.from(s, 'utf8')), -1);
      }),
      fcParams({ numRuns: 300 }),
    );
  });
});
