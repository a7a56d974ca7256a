/**
 * Properties: the signature covers the raw bytes. Each transformation a receiver might apply
 * before hashing yields a different byte string, and the original signature must not verify it.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { signatureValue, verifySignature } from '../../core/signature/index.ts';
import {
  bodyArb,
  bomBodyArb,
  crlfBodyArb,
  invalidUtf8BodyArb,
  nfcNfdPairArb,
  utf8,
} from '../arbitraries/body-arb.ts';
import { nonCanonicalJsonTextArb } from '../arbitraries/json-text-arb.ts';
import { secretArb } from '../arbitraries/secret-arb.ts';
import { collect, type SignatureRule } from './rule.ts';

export const RULES: SignatureRule[] = [];
const ruleForEachForm = collect(RULES);

const differ = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) !== 0;

/** Signs `original`, checks the transform changed the bytes, and that the signature fails on them. */
function mustNotVerify(
  form: 'prefixed' | 'plain',
  secret: string | Uint8Array,
  original: Uint8Array,
  changed: Uint8Array,
) {
  assert.ok(differ(original, changed), 'the transformation must change the bytes');
  assert.equal(
    verifySignature(form, secret, changed, signatureValue(form, secret, original)),
    false,
  );
}

ruleForEachForm('re-serialised JSON does not verify', (form) =>
  fc.property(secretArb(), nonCanonicalJsonTextArb(), (secret, text) => {
    mustNotVerify(form, secret, utf8(text), utf8(JSON.stringify(JSON.parse(text))));
  }),
);

ruleForEachForm('an appended newline does not verify', (form) =>
  fc.property(secretArb(), bodyArb(), fc.constantFrom('\n', '\r\n'), (secret, body, nl) => {
    mustNotVerify(form, secret, body, Uint8Array.from([...body, ...utf8(nl)]));
  }),
);

ruleForEachForm('CRLF converted to LF does not verify', (form) =>
  fc.property(secretArb(), crlfBodyArb(), (secret, body) => {
    // Byte-level, so nothing but the CRs before LFs changes.
    const lf = body.filter((byte, i) => !(byte === 0x0d && body[i + 1] === 0x0a));
    mustNotVerify(form, secret, body, lf);
  }),
);

ruleForEachForm('a lossy UTF-8 round trip does not verify', (form) =>
  fc.property(secretArb(), invalidUtf8BodyArb(), (secret, body) => {
    mustNotVerify(form, secret, body, utf8(new TextDecoder().decode(body)));
  }),
);

ruleForEachForm('a stripped byte-order mark does not verify', (form) =>
  fc.property(secretArb(), bomBodyArb(), (secret, body) => {
    // TextDecoder drops a leading BOM by default.
    mustNotVerify(form, secret, body, utf8(new TextDecoder().decode(body)));
  }),
);

ruleForEachForm('NFC and NFD spellings of one text do not verify each other', (form) =>
  fc.property(secretArb(), nfcNfdPairArb(), (secret, { nfc, nfd }) => {
    mustNotVerify(form, secret, nfc, nfd);
    mustNotVerify(form, secret, nfd, nfc);
  }),
);
