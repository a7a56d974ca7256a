/**
 * Redaction is linear in its text and exactly as safe as the regexes it replaced: on short texts
 * drawn from the pieces those patterns react to, it masks what they masked (the old patterns are
 * the oracle here); on texts a quadratic pattern chokes on — a 1 MiB word, a word of repeated
 * `signature`, a value holding a thousand signature-named words — it finishes (a quadratic one
 * would take minutes: such a regression shows as this test's timeout, not as a timing assertion).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BOGUS_KEY_PREFIX, maskSignatureValues, redact } from '../../core/redact.ts';

/** The patterns of core/redact.ts before it was made linear, applied the way it applied them. */
const OLD_SHAPES: Array<[RegExp, string]> = [
  [
    new RegExp(`(Bearer\\s+)(?![A-Za-z_]+=")(?!${BOGUS_KEY_PREFIX})[A-Za-z0-9._~+/=-]+`, 'gi'),
    '$1[REDACTED]',
  ],
  [
    /((?:x-service-signature|service-signature)\s*[:=]\s*(?:sha256=)?)[0-9a-fA-F]{16,}/gi,
    '$1[REDACTED]',
  ],
  [
    /((?:[\w-]*signature[\w-]*)"?\s*[:=]\s*"?)[^\s"',;]*?[0-9a-fA-F]{16,}[^\s"',;]*/gi,
    '$1[REDACTED]',
  ],
  [/((?:x-admin-token|admin[_-]?token)\s*[:=]\s*)\S+/gi, '$1[REDACTED]'],
];

function oldRedact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length))
    out = out.split(s).join('[REDACTED]');
  for (const [re, rep] of OLD_SHAPES) out = out.replace(re, rep);
  return out;
}

/** Pieces the patterns react to, and the characters around them. */
const PIECES = [
  'signature',
  'Signature',
  'x-service-signature',
  'service-signature',
  'X-Hub-Signature-256',
  'sha256=',
  'Bearer',
  'bearer',
  'realm=',
  BOGUS_KEY_PREFIX,
  'admin_token',
  'x-admin-token',
  '0123456789abcdef',
  'deadbeef',
  'ABCDEF',
  'a',
  'g',
  'z9',
  '-',
  '_',
  ':',
  '=',
  '"',
  "'",
  ',',
  ';',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
  'é',
  'ſ',
  'K',
  'topsecret1',
];
const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

test('redact masks exactly what the old patterns masked', () => {
  fc.assert(
    fc.property(textArb, (text) => {
      assert.equal(redact(text, ['topsecret1']), oldRedact(text, ['topsecret1']));
    }),
    { numRuns: 20_000 },
  );
});

test('the signature-value scan alone matches its old pattern', () => {
  const old = OLD_SHAPES[2]!;
  fc.assert(
    fc.property(textArb, (text) => {
      assert.equal(maskSignatureValues(text), text.replace(old[0], old[1]));
    }),
    { numRuns: 20_000 },
  );
});

test('examples: what is masked and what is kept', () => {
  const hex = 'a'.repeat(40);
  assert.equal(redact(`X-Hub-Signature-256: sha256=${hex}`), 'X-Hub-Signature-256: [REDACTED]');
  assert.equal(redact(`{"my_signature":"${hex}"}`), '{"my_signature":"[REDACTED]"}');
  assert.equal(redact('Bearer realm="v1"'), 'Bearer realm="v1"');
  assert.equal(redact('Authorization: Bearer abc.def'), 'Authorization: Bearer [REDACTED]');
  assert.equal(redact(`Bearer ${BOGUS_KEY_PREFIX}x1`), `Bearer ${BOGUS_KEY_PREFIX}x1`);
  // A kept token that ends in `Bearer` before whitespace starts another bearer phrase (found by
  // the property above, seed 59397881: the old pattern's lookahead looked inside it).
  assert.equal(
    redact(`Bearer ${BOGUS_KEY_PREFIX}Bearer\tkey`),
    `Bearer ${BOGUS_KEY_PREFIX}Bearer\t[REDACTED]`,
  );
  assert.equal(redact('admin_token=abc def'), 'admin_token=[REDACTED] def');
  // The digest may sit after other signature-named words in the same value.
  assert.equal(redact(`signature=a-signature=b-signature=${hex}`), 'signature=[REDACTED]');
});

const MiB = 1024 * 1024;

/**
 * Inputs on which the old patterns are quadratic (minutes each at this size): one word, a word of
 * repeated keywords, a value of repeated signature-named assignments, long whitespace.
 */
const HOSTILE: Array<[string, string]> = [
  ['a 1 MiB word', 'x'.repeat(MiB)],
  ['a 1 MiB word of hex', 'a'.repeat(MiB)],
  ['a 1 MiB word of repeated "signature"', 'signature'.repeat(MiB / 9)],
  ['signature-named assignments without a digest', 'signature=a-'.repeat(MiB / 12)],
  ['Bearer followed by 1 MiB of spaces', `Bearer${' '.repeat(MiB)}"`],
  [
    'a chain of kept invented keys, each ending in Bearer (each looked into once)',
    `Bearer ${`${BOGUS_KEY_PREFIX}Bearer `.repeat(MiB / 26)}`,
  ],
  ['"signature" followed by 1 MiB of spaces', `signature${' '.repeat(MiB)}x`],
  ['admin_token followed by 1 MiB of spaces', `admin_token${' '.repeat(MiB)}`],
  ['a 1 MiB value after "signature:" with no digest', `signature: ${'g'.repeat(MiB)}`],
];

for (const [name, text] of HOSTILE) {
  test(`redact finishes on ${name}`, { timeout: 60_000 }, () => {
    const out = redact(text);
    // Nothing in these is a secret except where a signature value holds a digest.
    assert.equal(out.length > 0, true);
    assert.equal(out, text);
  });
}

test('a 1 MiB signature value with a digest at its end is masked whole', {
  timeout: 60_000,
}, () => {
  const text = `x-signature: ${'g'.repeat(MiB)}${'0'.repeat(64)} tail`;
  assert.equal(redact(text), 'x-signature: [REDACTED] tail');
});

test('redactValue never throws on what a target sent', async () => {
  const { redactValue } = await import('../../core/redact.ts');
  // The admin-token mask runs to the next space: in JSON text it swallows quotes and braces.
  const odd = { subject: 'admin_token=abc', tags: ['x-signature: 0123456789abcdef0123'], n: 1 };
  assert.deepEqual(redactValue(odd), {
    subject: 'admin_token=[REDACTED]',
    tags: ['x-signature: [REDACTED]'],
    n: 1,
  });
  // A signature-named key still masks its value.
  assert.deepEqual(redactValue({ a: 'admin_token=x', 'x-signature': 'ab'.repeat(20) }), {
    a: 'admin_token=[REDACTED]',
    'x-signature': '[REDACTED]',
  });
  let deep: unknown = 'bottom';
  for (let i = 0; i < 10_000; i++) deep = [deep];
  const cut = JSON.stringify(redactValue({ deep }));
  assert.match(cut, /nested deeper than 32 levels/);
});
