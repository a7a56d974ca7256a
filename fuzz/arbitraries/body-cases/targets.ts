/**
 * What the mutations of one request schema aim at: valid bodies to start from and the schema's
 * sites, sorted by the keyword a mutation can break there.
 */
import type fc from 'fast-check';
import {
  deref,
  type JsonSchema,
  type Resolve,
  type SchemaSite,
  schemaSites,
  validValueArb,
} from '../schema-arb.ts';

export interface BodyTargets {
  resolve: Resolve;
  valid: fc.Arbitrary<unknown>;
  sites: SchemaSite[];
  /** Free strings (no enum), of which `limited` have a maxLength and `nonEmpty` a minLength. */
  strings: SchemaSite[];
  limited: SchemaSite[];
  nonEmpty: SchemaSite[];
  required: SchemaSite[];
  enums: SchemaSite[];
  emails: SchemaSite[];
  /** Arrays with a maxItems. */
  arrays: SchemaSite[];
  /** The root and every nested object, with the property names each declares. */
  objects: Array<{ path: Array<string | number>; declared: string[] }>;
}

export function bodyTargets(schema: JsonSchema, resolve: Resolve): BodyTargets {
  const sites = schemaSites(schema, resolve);
  const where = (f: (s: SchemaSite) => boolean) => sites.filter(f);
  const strings = where((s) => s.schema.type === 'string' && !s.schema.enum);
  const declared = (o: JsonSchema) => Object.keys(deref(o, resolve).properties ?? {});
  return {
    resolve,
    valid: validValueArb(schema, resolve),
    sites,
    strings,
    limited: strings.filter((s) => s.schema.maxLength !== undefined),
    nonEmpty: strings.filter((s) => (s.schema.minLength ?? 0) > 0),
    required: where((s) => s.required),
    enums: where((s) => Array.isArray(s.schema.enum)),
    emails: where((s) => s.schema.format === 'email'),
    arrays: where((s) => s.schema.type === 'array' && s.schema.maxItems !== undefined),
    objects: [
      { path: [], declared: declared(schema) },
      ...where((s) => s.schema.type === 'object').map((s) => ({
        path: s.path,
        declared: declared(s.schema),
      })),
    ],
  };
}

/** The `i`-th of `xs`, wrapping: how a drawn `fc.nat()` chooses a site. */
export const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;
