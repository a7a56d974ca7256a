/**
 * The class sampler of a request schema: a fixed list of bodies, the same every run, that sends
 * each input class (input-classes.ts) the schema gives a place to at least once — text of every
 * kind in every free-text field at once, each boundary length in the first free-text field (and in
 * the field whose own limit it is), tags lists short and long, a body just under and one over the
 * size limit. The API input fuzz runs these before its random cases (fast-check `examples`), so
 * a class is never left to chance; the random cases come on top, within the budget.
 */
import { TEXT_SAMPLES } from '../../../core/typed-text.ts';
import { BOUNDARY_LENGTHS } from '../input-classes.ts';

import { deref, type JsonSchema, type Resolve, type SchemaSite, sitePath } from '../schema-arb.ts';
import { type BodyCase, type BodyCaseKind, paddedJson } from './body-case.ts';
import { setAt } from './json-path.ts';
import type { BodyTargets } from './targets.ts';

/** The packed sampler takes the text samples from here, as the class sampler's. */
export { TEXT_SAMPLES };

/** A plain valid value of `schema`: every property, the first enum value, one array item. */
export function plainValue(schema: JsonSchema, resolve: Resolve): unknown {
  const s = deref(schema, resolve);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  switch (s.type) {
    case 'string':
      if (s.format === 'email') return 'fuzz@example.com';
      return 'plain text'.padEnd(s.minLength ?? 0, '.');
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () =>
        plainValue(s.items ?? {}, resolve),
      );
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, plainValue(v, resolve)]),
      );
    default:
      return null;
  }
}

/** Options of {@link classSampler}. */
export interface SamplerOptions {
  /** Body size limit in bytes (U26). */
  bodyLimit: number;
}

/** The kind a string of `n` code points makes at `site`, by its maxLength. */
function lengthKind(site: SchemaSite, n: number): BodyCaseKind {
  const max = site.schema.maxLength;
  if (max === undefined || n < max) return 'valid';
  return n === max ? 'at-limit' : 'too-long';
}

/** The sampler's bodies for `schema` (an empty list when it has no site for any class). */
export function classSampler(
  schema: JsonSchema,
  t: BodyTargets,
  options: SamplerOptions,
): BodyCase[] {
  const plain = plainValue(schema, t.resolve);
  const text = t.strings.filter((s) => s.schema.format === undefined);
  const out: BodyCase[] = [];
  if (text.length > 0) {
    for (const { note, text: sample } of TEXT_SAMPLES) {
      let json = plain;
      for (const site of text) json = setAt(json, site.path, sample);
      out.push({
        kind: 'valid',
        note: `class sampler: ${note} in ${text.map((s) => sitePath(s.path)).join(', ')}`,
        json,
      });
    }
  }
  const tags = t.arrays.find((a) => a.path.length === 1 && a.path[0] === 'tags');
  if (tags) {
    const max = tags.schema.maxItems!;
    const list = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);
    for (const [n, kind] of [
      [0, 'valid'],
      [1, 'valid'],
      [max, 'at-limit'],
      [max + 1, 'too-many-items'],
      [1000, 'too-many-items'],
    ] as const)
      out.push({
        kind,
        note: `class sampler: ${n} tags (maxItems ${max})`,
        json: setAt(plain, tags.path, list(n)),
      });
  }
  // Fields of an array's items are left out: a tag is not where a 10 000-character text goes.
  const fields = text.filter((s) => !s.path.some((p) => typeof p === 'number'));
  const primary = fields[0];
  if (primary) {
    for (const n of BOUNDARY_LENGTHS) {
      const own = fields.filter(
        (s) => s !== primary && (s.schema.maxLength === n || s.schema.maxLength === n - 1),
      );
      for (const site of [primary, ...own])
        out.push({
          kind: lengthKind(site, n),
          note: `class sampler: ${sitePath(site.path)} of ${n} code points (maxLength ${site.schema.maxLength ?? 'none'})`,
          json: setAt(plain, site.path, 'a'.repeat(n)),
        });
    }
    // Insignificant whitespace pads a valid body to just under the limit, and over it.
    if (Buffer.byteLength(JSON.stringify(plain)) < options.bodyLimit - 1024)
      out.push({
        kind: 'valid',
        note: `class sampler: a valid body of ${options.bodyLimit - 1024} bytes (whitespace), 1 KiB under the ${options.bodyLimit}-byte limit`,
        raw: paddedJson(plain, options.bodyLimit - 1024),
      });
    out.push({
      kind: 'over-body-limit',
      note: `class sampler: a valid body padded with whitespace to ${options.bodyLimit + 1024} bytes: the body exceeds the ${options.bodyLimit}-byte limit`,
      raw: paddedJson(plain, options.bodyLimit + 1024),
    });
  }
  return out;
}
