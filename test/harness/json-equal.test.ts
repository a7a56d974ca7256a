/** sameJson: JSON.stringify equality up to key order, on any depth. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sameJson } from '../../core/json-equal.ts';

/** A JSON value with its object keys in another order. */
function shuffled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shuffled);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, shuffled(x)]),
    );
  return v;
}

/** A JSON value with its object keys sorted: JSON text equal iff equal up to key order. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  return v;
}

test('sameJson agrees with JSON.stringify equality, key order aside', () => {
  const pairs = fc.oneof(
    fc.tuple(fc.jsonValue(), fc.jsonValue()),
    fc.jsonValue().map((a) => [a, shuffled(a)] as const),
    fc.jsonValue().map((a) => [a, JSON.parse(JSON.stringify(a) ?? 'null')] as const),
  );
  fc.assert(
    fc.property(pairs, ([a, b]) => {
      assert.equal(sameJson(a, b), JSON.stringify(sorted(a)) === JSON.stringify(sorted(b)));
    }),
    { numRuns: 5000 },
  );
  assert.equal(sameJson({ a: 1, b: undefined }, { a: 1 }), true);
  assert.equal(sameJson([undefined], [null]), true);
  assert.equal(sameJson({ a: 1 }, { a: '1' }), false);
  assert.equal(sameJson([1, 2], [2, 1]), false);
  assert.equal(sameJson({ a: [1] }, { a: {} }), false);
});

test('sameJson compares arrays nested 100 000 deep without overflowing the stack', () => {
  const deep = (bottom: string) => {
    let v: unknown = bottom;
    for (let i = 0; i < 100_000; i++) v = [v];
    return v;
  };
  assert.equal(sameJson(deep('x'), deep('x')), true);
  assert.equal(sameJson(deep('x'), deep('y')), false);
});
