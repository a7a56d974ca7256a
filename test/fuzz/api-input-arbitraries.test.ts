/**
 * The generator of the API input fuzz judged by the spec's own validator: "valid" bodies are
 * valid, each mutation breaks the schema in the way it says, so a pass of the fuzz means the
 * service saw both sides of every rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type BodyCase,
  type BodyCaseKind,
  bodyCaseArb,
  encodeBodyCase,
} from '../../fuzz/arbitraries/api-body-arb.ts';
import { deepJsonText } from '../../fuzz/arbitraries/body-cases/deep-junk.ts';
import { deleteAt } from '../../fuzz/arbitraries/body-cases/json-path.ts';
import { codePointLength } from '../../fuzz/arbitraries/hostile-text-arb.ts';
import { deref, schemaSites, sitePath, validValueArb } from '../../fuzz/arbitraries/schema-arb.ts';
import { fcParams } from '../../fuzz/shared/seed.ts';
import { validate } from '../../core/schemas/registry.ts';
import { componentSchema, resolveSpecRef } from '../../fuzz/api-input/spec-schemas.ts';

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

/** The value at `path` (undefined when a step is missing). */
function at(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
  }
  return node;
}

/** Cases of one kind only (the others are drawn and dropped). */
const casesOf = (
  kind: BodyCaseKind,
  name: (typeof SCHEMAS)[number],
  options?: Parameters<typeof bodyCaseArb>[2],
) => bodyCaseArb(componentSchema(name), resolveSpecRef, options).filter((c) => c.kind === kind);

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
  // The mutations the validator cannot judge by itself (a schema may allow unknown fields, the
  // media type and the body size are not in the schema): each is checked against its promise.
  for (const name of SCHEMAS) {
    const schema = componentSchema(name);

    test(`${name}: extra-fields adds only keys the schema does not declare, to a valid body`, () => {
      fc.assert(
        fc.property(casesOf('extra-fields', name), (c) => {
          const p = parsed(c);
          assert.ok(p.ok && c.at && c.keys && c.keys.length > 0, 'a JSON body naming its keys');
          assert.ok(c.note.endsWith(` at ${sitePath(c.at)}`), `note names the site: ${c.note}`);
          const obj = at(p.value, c.at);
          assert.ok(obj !== null && typeof obj === 'object' && !Array.isArray(obj), 'an object');
          const site =
            c.at.length === 0
              ? schema
              : schemaSites(schema, resolveSpecRef).find(
                  (s) => sitePath(s.path) === sitePath(c.at!),
                )?.schema;
          assert.ok(site, `${sitePath(c.at)} is a site of ${name}`);
          const declared = Object.keys(deref(site, resolveSpecRef).properties ?? {});
          for (const k of c.keys) {
            assert.ok(Object.hasOwn(obj, k), `${JSON.stringify(k)} sent as an own property`);
            assert.ok(!declared.includes(k), `${JSON.stringify(k)} is declared: not unknown`);
          }
          // Without the added keys the body is a valid one: the extra fields are the only change.
          let rest = p.value;
          for (const k of c.keys) rest = deleteAt(rest, [...c.at, k]);
          assert.deepEqual(validate(name, rest), [], `${c.note}: the rest must be valid`);
        }),
        fcParams({ numRuns: 100 }),
      );
    });

    test(`${name}: deep-junk nests exactly as deep as it says, where it says`, () => {
      fc.assert(
        fc.property(casesOf('deep-junk', name), (c) => {
          const p = parsed(c);
          assert.ok(p.ok && c.at && c.deep, 'JSON text with its site and depth');
          // Walk down by the promised shape: arrays at even levels for `mixed`.
          let v = at(p.value, c.at);
          for (let level = 0; level < c.deep.depth; level++) {
            const asArray =
              c.deep.shape === 'array' || (c.deep.shape === 'mixed' && level % 2 === 0);
            if (asArray) {
              assert.ok(Array.isArray(v) && v.length === 1, `level ${level}: a one-item array`);
              v = v[0];
            } else {
              assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v), `level ${level}`);
              assert.deepEqual(Object.keys(v), ['a'], `level ${level}: {"a": …}`);
              v = (v as { a: unknown }).a;
            }
          }
          assert.equal(v, 'bottom', `exactly ${c.deep.depth} levels`);
          assert.ok(c.deep.depth >= 32, 'deep enough to matter');
          const declared = schemaSites(schema, resolveSpecRef).some(
            (s) => sitePath(s.path) === sitePath(c.at!),
          );
          if (declared) {
            // Junk in place of a declared value: no request schema takes a nested structure there.
            assert.notDeepEqual(validate(name, p.value), [], `${c.note} must be invalid`);
          } else {
            // Junk under an unknown key: the rest of the body is the valid body it was built on
            // (a shallow copy: a deep value overflows any recursive walker, deleteAt's clone too).
            assert.deepEqual(c.at, ['junk']);
            const { junk: _junk, ...rest } = p.value as Record<string, unknown>;
            assert.deepEqual(validate(name, rest), [], 'the rest is valid');
          }
        }),
        fcParams({ numRuns: 60 }),
      );
    });

    test(`${name}: media-type sends a valid body with another Content-Type (or none)`, () => {
      fc.assert(
        fc.property(casesOf('media-type', name), (c) => {
          assert.deepEqual(validate(name, c.json), [], 'the body itself is valid');
          const sent = encodeBodyCase(c, 'application/json');
          assert.equal(sent.body, JSON.stringify(c.json));
          assert.notEqual(sent.contentType, 'application/json', 'not the operation media type');
          assert.equal(sent.contentType, c.contentType, 'the case decides the header');
          assert.equal(
            c.note,
            c.contentType === null ? 'no Content-Type' : `Content-Type ${c.contentType}`,
          );
        }),
        fcParams({ numRuns: 50 }),
      );
    });

    test(`${name}: over-body-limit exceeds the limit by at most 4 KiB, by whitespace alone`, () => {
      const bodyLimit = 2048;
      fc.assert(
        fc.property(casesOf('over-body-limit', name, { bodyLimit }), (c) => {
          const sent = encodeBodyCase(c, 'application/json');
          const bytes = Buffer.byteLength(sent.body);
          assert.ok(bytes > bodyLimit, `${bytes} bytes must exceed ${bodyLimit}`);
          assert.ok(bytes - bodyLimit <= 4096);
          assert.equal(sent.contentType, 'application/json', 'only the size is wrong');
          const m =
            /padded with whitespace to (\d+) bytes: the body exceeds the (\d+)-byte limit$/.exec(
              c.note,
            );
          assert.ok(m, `note: ${c.note}`);
          assert.equal(Number(m[1]), bytes);
          assert.equal(Number(m[2]), bodyLimit);
          // Its values are a valid body's, none long: lists show nothing of the bulk.
          const value = JSON.parse(sent.body);
          assert.deepEqual(validate(name, value), [], 'a valid body');
          assert.ok(Buffer.byteLength(JSON.stringify(value)) < bodyLimit, 'the bulk is whitespace');
        }),
        fcParams({ numRuns: 50 }),
      );
      // The default limit is the API's 1 MiB (U26).
      const [c] = fc.sample(casesOf('over-body-limit', name), { numRuns: 1, seed: 1 });
      assert.ok(Buffer.byteLength(encodeBodyCase(c!, 'application/json').body) > 1024 * 1024);
    });
  }
});
