/**
 * The spec, loaded once. `spec/openapi.yaml` is the single source of truth: schemas, provenance
 * (`x-provenance`, `x-gap`), scopes (`x-scope`) and documented status codes are all read from it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CORE_SCHEMA, load } from 'js-yaml';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const SCHEMAS_DIR = fileURLToPath(new URL('../../spec/schemas/', import.meta.url));
export const GENERATED_TYPES_PATH = fileURLToPath(
  new URL('../../spec/generated/api.d.ts', import.meta.url),
);

/** `$id` prefix of the standalone schemas; the name after it is the kebab-cased component name. */
export const SCHEMA_ID_BASE = 'https://support-ticketing.example/schemas/v1/';

export type OpenApiDoc = Record<string, any>;

let cached: OpenApiDoc | undefined;

/**
 * The one spec parser (the harness's spec and `diff-spec`'s inputs alike). js-yaml, the project's
 * one YAML package: ~10× faster than `yaml` on multi-MB specs, which is most of diff-spec's time. The YAML 1.2 core schema: no
 * timestamps (a date stays a string) and no merge keys; anchors and aliases (the project's spec
 * shares parameter lists) are followed.
 */
export function parseSpec(text: string, source: string): OpenApiDoc {
  let doc: unknown;
  try {
    doc = load(text, { schema: CORE_SCHEMA, filename: source });
  } catch (err) {
    throw new Error(`cannot parse '${source}': ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error(`'${source}' is not an OpenAPI document (expected a mapping at the top)`);
  return doc as OpenApiDoc;
}

export function loadSpec(path = SPEC_PATH): OpenApiDoc {
  if (path === SPEC_PATH && cached) return cached;
  const doc = parseSpec(readFileSync(path, 'utf8'), path);
  if (path === SPEC_PATH) cached = doc;
  return doc;
}

export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

export function schemaId(componentName: string): string {
  return `${SCHEMA_ID_BASE}${kebab(componentName)}.json`;
}
