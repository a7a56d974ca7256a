/**
 * What is shown of the target's data (core/shown.ts): bounded, said so, and never half a secret.
 * `boundedJson` is JSON.stringify cut at a length — exactly, on any JSON value — without
 * building more than it shows, so a 10 000-deep array (where JSON.stringify throws) is shown too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { redact, registerSecret } from '../../core/redact.ts';
import { boundedJson, boundedValue, jsonDepth, shownText } from '../../core/shown.ts';

/** What `show` did before: the whole JSON text, then cut. */
function oldShow(v: unknown, max: number): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const deepArray = (depth: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

test('boundedJson is JSON.stringify cut at max, on any JSON value', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: false })),
      fc.integer({ min: 0, max: 300 }),
      (v, max) => {
        let want: string;
        try {
          want = oldShow(v, max);
        } catch {
          return; // what JSON.stringify cannot do (a bigint) is no reference
        }
        assert.equal(boundedJson(v, max), want);
      },
    ),
    { numRuns: 5000 },
  );
  for (const v of [undefined, 'é😀x', '😀'.repeat(50), { a: undefined, b: [undefined, () => 1] }])
    for (const max of [0, 1, 2, 3, 5, 80])
      assert.equal(boundedJson(v, max), oldShow(v, max), `${String(v)} at ${max}`);
});

test('boundedJson shows a 10 000-deep array and a 10 MiB list within its bound', () => {
  assert.throws(() => JSON.stringify(deepArray(10_000)), RangeError);
  assert.equal(boundedJson(deepArray(10_000), 12), `${'['.repeat(12)}…`);
  const list = Array.from({ length: 100_000 }, (_, i) => ({
    id: `tkt_${i}`,
    subject: 'x'.repeat(90),
  }));
  const shown = boundedJson(list, 200);
  assert.equal(shown.length, 201);
  assert.equal(shown, `${JSON.stringify(list).slice(0, 200)}…`);
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.ok(boundedJson(cyclic, 50).endsWith('…'));
});

test('jsonDepth counts without recursion and stops past its limit', () => {
  assert.equal(jsonDepth('x'), 0);
  assert.equal(jsonDepth([]), 1);
  assert.equal(jsonDepth({ a: [1, { b: 2 }] }), 3);
  assert.equal(jsonDepth(deepArray(10_000)), 10_000);
  assert.equal(jsonDepth(deepArray(10_000), 64), 65);
});

test('shownText keeps short text and says the size of what it cut', () => {
  assert.equal(shownText('short', 10), 'short');
  const word = 'x'.repeat(1024 * 1024);
  assert.equal(shownText(word, 4096), `${'x'.repeat(4096)}… (1048576 bytes, first 4096 shown)`);
  // Sizes are bytes: a cut never splits a surrogate pair.
  const emoji = '😀'.repeat(10);
  assert.equal(shownText(emoji, 3), '😀… (40 bytes, first 4 shown)');
});

test('a cut never shows part of a registered secret, whatever the cut point', () => {
  const secret = 'whsec_Zq81mV0pLr3xN7tKs2Ye';
  registerSecret(secret);
  fc.assert(
    fc.property(
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 60 }),
      fc.nat(200),
      (a, b, at) => {
        const text = `${a}${secret}${b}${secret}`;
        const shown = redact(shownText(text, at));
        for (let n = 6; n <= secret.length; n++)
          for (let i = 0; i + n <= secret.length; i += 3)
            assert.ok(
              !shown.includes(secret.slice(i, i + n)),
              `${shown} shows ${secret.slice(i, i + n)}`,
            );
      },
    ),
    { numRuns: 2000 },
  );
});

test('a cut never leaves the first digits of a signature digest', () => {
  const digest = 'ab'.repeat(32);
  for (let at = 0; at < 90; at++) {
    const shown = redact(shownText(`X-Signature: sha256=${digest} rest`, at));
    // Either the value is masked, or none of its digits shows.
    assert.ok(
      /sha256=(\[REDACTED\]|…)/.test(shown) || !shown.includes('sha256='),
      `${at}: ${shown}`,
    );
  }
});

test('boundedValue keeps small values and says what it left out', () => {
  const small = { a: [1, 'two', { b: null }] };
  assert.deepEqual(boundedValue(small), small);
  const v = boundedValue(
    { deep: deepArray(50), long: 'y'.repeat(5000), many: Array.from({ length: 150 }, (_, i) => i) },
    { depth: 4, chars: 10, items: 100 },
  ) as Record<string, unknown>;
  assert.deepEqual(v.deep, [[['… (nested deeper than 4 levels)']]]);
  assert.equal(v.long, `${'y'.repeat(10)}… (5000 bytes, first 10 shown)`);
  assert.equal((v.many as unknown[]).length, 101);
  assert.equal((v.many as unknown[])[100], '… (50 more items)');
});
