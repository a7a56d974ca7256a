/**
 * Values drawn from a JSON Schema, for the subset the spec's request schemas use: `type`
 * (object, array, string, boolean, integer, number), `properties`, `required`, `enum`, `const`,
 * `minLength`/`maxLength` (code points), `minItems`/`maxItems`, `minProperties`, `format: email`,
 * `minimum`/`maximum` and `$ref`. A keyword that would constrain values but is not understood
 * throws, so a schema change never silently yields invalid "valid" values.
 *
 * Also lists the schema's sites (every property, nested, with its subschema), which the
 * mutations of `body-cases/` (mixed by `api-body-arb.ts`) aim at.
 */
import fc from 'fast-check';
import { hostileTextArb } from './hostile-text-arb.ts';
import { plainEmailArb } from './ticket-content-arb.ts';

export interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  items?: JsonSchema;
  format?: string;
  minimum?: number;
  maximum?: number;
  [keyword: string]: unknown;
}

/** Returns the schema a `$ref` points at. */
export type Resolve = (ref: string) => JsonSchema;

/** Keywords that constrain values and that this module does not implement. */
const UNSUPPORTED = [
  'pattern',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'patternProperties',
  'dependentRequired',
  'uniqueItems',
  'multipleOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'maxProperties',
];

/** Follows `$ref` until a schema without one. */
export function deref(schema: JsonSchema, resolve: Resolve): JsonSchema {
  let s = schema;
  for (let hops = 0; s.$ref !== undefined; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${s.$ref}`);
    s = resolve(s.$ref);
  }
  return s;
}

/** Options of {@link validValueArb}. */
export interface SchemaArbOptions {
  /** Longest random string in code points (a schema's own `maxLength` still applies). Default 40. */
  maxStringLength?: number;
  /** Longest random array (a schema's own `maxItems` still applies). Default 4. */
  maxArrayLength?: number;
}

/** Values valid against `schema`. */
export function validValueArb(
  schema: JsonSchema,
  resolve: Resolve,
  options: SchemaArbOptions = {},
): fc.Arbitrary<unknown> {
  const { maxStringLength = 40, maxArrayLength = 4 } = options;
  const s = deref(schema, resolve);
  const bad = UNSUPPORTED.filter((k) => k in s);
  if (bad.length > 0) throw new Error(`schema-arb: unsupported keyword(s) ${bad.join(', ')}`);
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string': {
      const min = s.minLength ?? 0;
      const max = Math.max(min, Math.min(s.maxLength ?? maxStringLength, maxStringLength));
      if (s.format === 'email')
        return plainEmailArb().filter((e) => e.length <= (s.maxLength ?? 254));
      if (s.format !== undefined) throw new Error(`schema-arb: unsupported format ${s.format}`);
      return hostileTextArb({ minLength: min, maxLength: max });
    }
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: s.minimum ?? -1_000_000,
        max: s.maximum ?? 1_000_000,
      });
    case 'number':
      return fc.double({
        min: s.minimum ?? -1e9,
        max: s.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? maxArrayLength, maxArrayLength));
      return fc.array(validValueArb(s.items ?? {}, resolve, options), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object': {
      const props = s.properties ?? {};
      const arbs: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, sub] of Object.entries(props)) arbs[k] = validValueArb(sub, resolve, options);
      const record = fc.record(arbs, {
        requiredKeys: (s.required ?? []).filter((k) => k in props),
      }) as fc.Arbitrary<Record<string, unknown>>;
      const minProps = s.minProperties ?? 0;
      return minProps > 0 ? record.filter((o) => Object.keys(o).length >= minProps) : record;
    }
    case undefined:
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`schema-arb: unsupported type ${String(s.type)}`);
  }
}

/** One place in a value where a schema applies: a property (nested) or an array's items. */
export interface SchemaSite {
  /** Keys and indices from the root; an array's items are addressed as index 0. */
  path: Array<string | number>;
  /** The subschema at the site, `$ref` resolved. */
  schema: JsonSchema;
  /** The property is in its parent's `required`. */
  required: boolean;
}

/** Every site of `schema` below the root, depth first. */
export function schemaSites(schema: JsonSchema, resolve: Resolve): SchemaSite[] {
  const out: SchemaSite[] = [];
  const walk = (s0: JsonSchema, path: Array<string | number>) => {
    const s = deref(s0, resolve);
    if (s.type === 'object') {
      for (const [k, sub] of Object.entries(s.properties ?? {})) {
        const site = { path: [...path, k], schema: deref(sub, resolve) };
        out.push({ ...site, required: (s.required ?? []).includes(k) });
        walk(sub, site.path);
      }
    } else if (s.type === 'array' && s.items) {
      const site = { path: [...path, 0], schema: deref(s.items, resolve) };
      out.push({ ...site, required: false });
      walk(s.items, site.path);
    }
  };
  walk(schema, []);
  return out;
}

/** Display form of a site path: `requester.email`, `tags[0]`. */
export function sitePath(path: ReadonlyArray<string | number>): string {
  return (
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') ||
    '(body)'
  );
}
