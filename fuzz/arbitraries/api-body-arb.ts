/**
 * Request bodies for an API operation, derived from its request schema: valid ones, valid ones at
 * the exact limits, and mutations that make them invalid in one way each — a required field
 * dropped, a wrong type, a value outside the enum, one code point too many, one item too many,
 * a bad email, unknown fields, deeply nested junk, non-object JSON, malformed JSON, a wrong media
 * type, a body over the 1 MiB limit. Each case says what it is (`kind`, `note`) so a
 * counterexample reads as a sentence. The mutations are in `body-cases/`; this is their mix.
 */
import fc from 'fast-check';
import type { BodyCase } from './body-cases/body-case.ts';
import {
  malformedJsonArb,
  mediaTypeArb,
  nonObjectArb,
  overBodyLimitArb,
} from './body-cases/body-envelope.ts';
import { deepJunkArb } from './body-cases/deep-junk.ts';
import { extraFieldsArb } from './body-cases/extra-fields.ts';
import { arrayLengthArb, stringLengthArb, tooShortArb } from './body-cases/field-limits.ts';
import {
  badFormatArb,
  dropRequiredArb,
  outOfEnumArb,
  wrongTypeArb,
} from './body-cases/field-values.ts';
import { bodyTargets } from './body-cases/targets.ts';
import type { JsonSchema, Resolve } from './schema-arb.ts';

export type { BodyCase, BodyCaseKind } from './body-cases/body-case.ts';

/** Options of {@link bodyCaseArb}. */
export interface BodyCaseOptions {
  /** Body size limit of the API in bytes (U26). Default 1 MiB. */
  bodyLimit?: number;
  /** Include the case of a body over the limit (allocates > 1 MiB per case). Default true. */
  overLimit?: boolean;
}

/** All cases for a request schema, each kind weighted; kinds the schema has no site for are left out. */
export function bodyCaseArb(
  schema: JsonSchema,
  resolve: Resolve,
  options: BodyCaseOptions = {},
): fc.Arbitrary<BodyCase> {
  const { bodyLimit = 1024 * 1024, overLimit = true } = options;
  const t = bodyTargets(schema, resolve);
  // The order is part of what a seed draws: a change of it changes every replayed counterexample.
  const mix: Array<[number, fc.Arbitrary<BodyCase> | undefined]> = [
    [6, t.valid.map((json): BodyCase => ({ kind: 'valid', note: 'valid', json }))],
    [3, extraFieldsArb(t)],
    [2, deepJunkArb(t)],
    [2, nonObjectArb(t)],
    [2, malformedJsonArb(t)],
    [1, mediaTypeArb(t)],
    [2, stringLengthArb(t, 0)],
    [2, stringLengthArb(t, 1)],
    [1, tooShortArb(t)],
    [3, dropRequiredArb(t)],
    [3, wrongTypeArb(t)],
    [2, outOfEnumArb(t)],
    [2, badFormatArb(t)],
    [2, arrayLengthArb(t)],
    [1, overLimit ? overBodyLimitArb(t, bodyLimit) : undefined],
  ];
  return fc.oneof(
    ...mix.flatMap(([weight, arbitrary]) => (arbitrary ? [{ arbitrary, weight }] : [])),
  );
}

/** The bytes and Content-Type a case is sent with, given the operation's media type. */
export function encodeBodyCase(
  c: BodyCase,
  mediaType: string,
): { body: string; contentType: string | null } {
  const body = c.raw ?? (c.json === undefined ? '' : JSON.stringify(c.json));
  return { body, contentType: c.contentType === undefined ? mediaType : c.contentType };
}
