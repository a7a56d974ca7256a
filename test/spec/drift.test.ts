import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateSchemaFiles, generateTypes } from '../../core/spec/generate.ts';
import { GENERATED_TYPES_PATH, SCHEMAS_DIR } from '../../core/spec/load-spec.ts';

const hint = 'run `npm run spec:generate` and commit the result';

test('spec/schemas/*.json are exactly what the spec generates', () => {
  const expected = generateSchemaFiles();
  const present = readdirSync(SCHEMAS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.deepEqual(present, [...expected.keys()].sort(), `schema file set drifted: ${hint}`);
  for (const [name, text] of expected) {
    assert.equal(readFileSync(join(SCHEMAS_DIR, name), 'utf8'), text, `${name} drifted: ${hint}`);
  }
});

test('spec/generated/api.d.ts is exactly what openapi-typescript generates', async () => {
  const current = readFileSync(GENERATED_TYPES_PATH, 'utf8');
  assert.ok(current.startsWith('/**\n * GENERATED'), 'do-not-edit header missing');
  assert.equal(current, await generateTypes(), `api.d.ts drifted: ${hint}`);
});
