/**
 * One Ajv (JSON Schema 2020-12) instance holding every schema of spec/schemas/ by `$id`, each
 * compiled once on first use. The harness validates responses and webhook payloads with it, the
 * reference deployment validates requests with it: one source of truth for both sides.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMAS_DIR, schemaId } from '../spec/load-spec.ts';

// ajv-formats ships CJS with a default export; under NodeNext the callable is on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface ValidationIssue {
  /** JSON pointer into the validated value ('' for the root). */
  pointer: string;
  /** Field name as a dotted path, for problem `errors[].field`. */
  field: string;
  keyword: string;
  message: string;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  // Vendor extensions of the spec are annotations, not validation keywords.
  for (const kw of ['x-provenance', 'x-gap', 'x-scope']) ajv.addKeyword(kw);
  for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')));
  }
  return ajv;
}

/** The compiled validator of a component schema (`'Ticket'`, `'TicketCreate'`, …). */
export function validatorFor(componentName: string): ValidateFunction {
  const hit = compiled.get(componentName);
  if (hit) return hit;
  const fn = instance().getSchema(schemaId(componentName));
  if (!fn)
    throw new Error(
      `no schema named '${componentName}' in spec/schemas/ (${schemaId(componentName)})`,
    );
  compiled.set(componentName, fn);
  return fn;
}

function toIssue(e: ErrorObject): ValidationIssue {
  let pointer = e.instancePath;
  if (e.keyword === 'required')
    pointer += `/${(e.params as { missingProperty: string }).missingProperty}`;
  const field = pointer.split('/').slice(1).join('.') || '(body)';
  return { pointer, field, keyword: e.keyword, message: e.message ?? e.keyword };
}

/** Validates `value` against a component schema; `[]` when valid. */
export function validate(componentName: string, value: unknown): ValidationIssue[] {
  const fn = validatorFor(componentName);
  if (fn(value)) return [];
  return (fn.errors ?? []).map(toIssue);
}
