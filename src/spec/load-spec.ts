/**
 * The spec, loaded once. `spec/openapi.yaml` is the single source of truth: schemas, provenance
 * (`x-provenance`, `x-gap`), scopes (`x-scope`) and documented status codes are all read from it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const SCHEMAS_DIR = fileURLToPath(new URL('../../spec/schemas/', import.meta.url));
export const GENERATED_TYPES_PATH = fileURLToPath(
  new URL('../../spec/generated/api.d.ts', import.meta.url),
);

/** `$id` prefix of the standalone schemas; the name after it is the kebab-cased component name. */
export const SCHEMA_ID_BASE = 'https://support-ticketing.example/schemas/v1/';

export type OpenApiDoc = Record<string, any>;

let cached: OpenApiDoc | undefined;

export function loadSpec(path = SPEC_PATH): OpenApiDoc {
  if (path === SPEC_PATH && cached) return cached;
  const doc = parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 }) as OpenApiDoc;
  if (path === SPEC_PATH) cached = doc;
  return doc;
}

export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

export function schemaId(componentName: string): string {
  return `${SCHEMA_ID_BASE}${kebab(componentName)}.json`;
}
