/**
 * The generator of the API input fuzz judged by the spec's own validator: "valid" bodies are
 * valid, each mutation breaks the schema in the way it says, so a pass of the fuzz means the
 * service saw both sides of every rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BodyCase, bodyCaseArb, deepJsonText } from './arbitraries/api-body-arb.ts';
import { codePointLength } from './arbitraries/hostile-text-arb.ts';
import { schemaSites, validValueArb } from './arbitraries/schema-arb.ts';
import { fcParams } from './seed.ts';
import { validate } from '../src/schemas/registry.ts';
import { componentSchema, resolveSpecRef } from '../src/fuzz/spec-schemas.ts';

const SCHEMAS = ['TicketCreate', 'TicketUpdate', 'MessageCreate'] as const;

/** Kinds whose bodies must be schema-invalid whatever else was drawn. */
const ALWAYS_INVALID = new Set([
  'too-long',
  'too-short',
  'drop-required',
  'wrong-type',
  'out-of-enum',
  'bad-format',
  'too-many-items',
  'non-object',
]);

function parsed(c: BodyCase): { ok: true; value: unknown } | { ok: false } {
  if (c.raw === undefined) return { ok: true, value: c.json };
  try {
    return { ok: true, value: JSON.parse(c.raw) };
  } catch {
    return { ok: false };
  }
}

describe('schema-derived bodies, judged by the spec validator', () => {
  for (const name of SCHEMAS) {
    const schema = componentSchema(name);

    test(`${name}: drawn valid values validate`, () => {
      fc.assert(
        fc.property(validValueArb(schema, resolveSpecRef), (v) => {
          const issues = validate(name, v);
          assert.deepEqual(issues, [], `valid ${name}: ${JSON.stringify(v)}`);
        }),
        fcParams({ numRuns: 200 }),
      );
    });

    test(`${name}: each mutation is invalid in the way it names, at-limit stays valid`, () => {
      fc.assert(
        fc.property(bodyCaseArb(schema, resolveSpecRef, { overLimit: false }), (c) => {
          const p = parsed(c);
          if (c.kind === 'malformed-json') {
            // A BOM is the one malformation RFC 8259 lets a parser forgive.
            assert.ok(!p.ok || c.note.includes('bom'), `${c.note} must not parse`);
            return;
          }
          assert.ok(p.ok, `${c.kind}: JSON expected`);
          const issues = validate(name, p.value);
          if (ALWAYS_INVALID.has(c.kind))
            assert.notDeepEqual(issues, [], `${c.kind} (${c.note}) must be invalid`);
          if (c.kind === 'valid' || c.kind === 'at-limit')
            assert.deepEqual(issues, [], `${c.kind} (${c.note}) must be valid`);
        }),
        fcParams({ numRuns: 300 }),
      );
    });
  }

  test('the schema walk finds nested and array sites', () => {
    const paths = schemaSites(componentSchema('TicketCreate'), resolveSpecRef).map((s) =>
      s.path.join('.'),
    );
    for (const p of ['subject', 'requester', 'requester.email', 'requester.name', 'tags', 'tags.0'])
      assert.ok(paths.includes(p), `site ${p} in ${paths.join(', ')}`);
  });

  test('at-limit strings count code points, as JSON Schema does', () => {
    fc.assert(
      fc.property(bodyCaseArb(componentSchema('TicketCreate'), resolveSpecRef), (c) => {
        fc.pre(c.kind === 'at-limit' && c.note.startsWith('subject'));
        const subject = (c.json as { subject: string }).subject;
        assert.equal(codePointLength(subject), 255, 'subject at its maxLength');
      }),
      fcParams({ numRuns: 50, maxSkipsPerRun: 1000 }),
    );
  });

  test('deep junk is built as text and parses to the promised depth', () => {
    const text = deepJsonText(5000, 'mixed');
    let v: unknown = JSON.parse(text);
    let depth = 0;
    while (v !== null && typeof v === 'object') {
      v = Array.isArray(v) ? v[0] : (v as { a: unknown }).a;
      depth++;
    }
    assert.equal(depth, 5000);
  });
});
