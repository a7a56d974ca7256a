/**
 * The packed sampler of the gate-sized fuzz (fuzz/arbitraries/body-cases/packed-sampler.ts,
 * packedQuerySampler): every class the full sampler sends still sent, in far fewer cases, and
 * only what cannot mask another shares a case — valid with valid, too long / too many with each
 * other, a body over the limit alone, dropped fields never one inside another — each packed case
 * keeping its one-class cases, each of which is as the schema says (valid or not) on its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeBodyCase } from '../../fuzz/arbitraries/api-body-arb.ts';
import { expectedAccepted } from '../../fuzz/arbitraries/body-cases/packed-sampler.ts';
import { hasLoneSurrogate } from '../../core/unicode.ts';
import { classCounts, operationCases } from '../../fuzz/api-input/cases.ts';
import { API_INPUT_OPERATIONS, inputOperation } from '../../fuzz/api-input/operations.ts';
import { caseClasses, isSchemaValid, sentValue } from '../../fuzz/api-input/tally.ts';
import type { BodyCase } from '../../fuzz/arbitraries/body-cases/body-case.ts';

const LIMIT = 1024 * 1024;

const classesOf = (op: (typeof API_INPUT_OPERATIONS)[number], cases: readonly BodyCase[]) => {
  const spec = inputOperation(op);
  const ctx = operationCases(spec, LIMIT).classes;
  const counts: Record<string, number> = {};
  for (const c of cases) {
    const body = c.query ? '' : encodeBodyCase(c, spec.mediaType).body;
    for (const n of caseClasses(c, sentValue(c), body, ctx)) counts[n] = (counts[n] ?? 0) + 1;
  }
  return classCounts(ctx, counts);
};

for (const op of API_INPUT_OPERATIONS) {
  test(`${op}: every class the full sampler sends, in far fewer cases`, () => {
    const full = operationCases(inputOperation(op), LIMIT).sampler;
    const packed = operationCases(inputOperation(op), LIMIT, true).sampler;
    assert.ok(packed.length * 2 < full.length, `${packed.length} packed, ${full.length} full`);
    const never = classesOf(op, packed).filter((c) => c.cases === 0);
    assert.deepEqual(never, [], 'every applicable class sent');
    assert.equal(
      classesOf(op, full).length,
      classesOf(op, packed).length,
      'the same classes apply',
    );
  });

  test(`${op}: only what cannot mask another shares a case; each part stands on its own`, () => {
    const spec = inputOperation(op);
    for (const c of operationCases(spec, LIMIT, true).sampler) {
      const valid = isSchemaValid(spec, c, sentValue(c));
      // A case is valid exactly when the kind says so: the judge's expectations hold.
      if (c.query === undefined) assert.equal(valid, expectedAccepted(c), c.note);
      if (!c.parts) continue;
      assert.ok(c.parts.length > 1, c.note);
      const kinds = new Set(c.parts.map((p) => p.kind));
      if (expectedAccepted(c)) {
        for (const p of c.parts) {
          assert.ok(expectedAccepted(p), `${c.note}: a valid case holds ${p.kind}`);
          if (!p.query) assert.ok(isSchemaValid(spec, p, sentValue(p)), p.note);
        }
      } else if (c.kind === 'drop-required') {
        assert.deepEqual([...kinds], ['drop-required'], c.note);
      } else if (!c.query) {
        assert.ok(
          [...kinds].every((k) => k === 'too-long' || k === 'too-many-items'),
          `${c.note}: ${[...kinds]}`,
        );
        for (const p of c.parts) assert.equal(isSchemaValid(spec, p, sentValue(p)), false, p.note);
      }
      assert.ok(!kinds.has('over-body-limit'), `${c.note}: the body over the limit goes alone`);
    }
  });
}

test('createTicket: a lone surrogate shares no field; the subject-like field goes far past its limit; the requester is dropped alone', () => {
  const cases = operationCases(inputOperation('createTicket'), LIMIT, true).sampler;
  for (const c of cases.filter(expectedAccepted)) {
    const v = sentValue(c) as { subject: string; requester: { name?: string } };
    for (const text of [v.subject, v.requester.name ?? ''])
      if (hasLoneSurrogate(text)) assert.match(text, /^lone \ud800 high, \udfff low$/);
  }
  assert.ok(
    cases.some(
      (c) =>
        !expectedAccepted(c) &&
        [...((sentValue(c) as { subject?: string }).subject ?? '')].length === 1000,
    ),
  );
  const drops = cases.filter((c) => c.kind === 'drop-required').map((c) => c.note);
  assert.deepEqual(drops, [
    'sampler, packed: required requester.email and subject dropped',
    'sampler: required requester dropped',
  ]);
});
