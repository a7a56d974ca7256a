/** The spec's standalone request schemas (spec/schemas/*.json) as plain objects, `$ref`s resolvable. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema, Resolve } from '../arbitraries/schema-arb.ts';
import { kebab, SCHEMA_ID_BASE, SCHEMAS_DIR } from '../../core/spec/load-spec.ts';

const cache = new Map<string, JsonSchema>();

function loadFile(file: string): JsonSchema {
  const hit = cache.get(file);
  if (hit) return hit;
  const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as JsonSchema;
  cache.set(file, schema);
  return schema;
}

/** The schema of a component (`'TicketCreate'` → spec/schemas/ticket-create.json). */
export function componentSchema(name: string): JsonSchema {
  return loadFile(`${kebab(name)}.json`);
}

/** Resolves the spec's `$ref`s: absolute `$id`s under the schema base, or sibling file names. */
export const resolveSpecRef: Resolve = (ref) => {
  const file = ref.startsWith(SCHEMA_ID_BASE)
    ? ref.slice(SCHEMA_ID_BASE.length)
    : ref.replace(/^\.\//, '');
  if (!/^[a-z0-9-]+\.json$/.test(file)) throw new Error(`unsupported $ref ${ref}`);
  return loadFile(file);
};
