/** `npm run spec:generate`: writes spec/schemas/*.json and spec/generated/api.d.ts from the spec. */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSchemaFiles, generateTypes } from '../core/spec/generate.ts';
import { GENERATED_TYPES_PATH, SCHEMAS_DIR } from '../core/spec/load-spec.ts';

mkdirSync(SCHEMAS_DIR, { recursive: true });
const files = generateSchemaFiles();
for (const old of readdirSync(SCHEMAS_DIR)) if (!files.has(old)) rmSync(join(SCHEMAS_DIR, old));
for (const [name, text] of files) writeFileSync(join(SCHEMAS_DIR, name), text);
writeFileSync(GENERATED_TYPES_PATH, await generateTypes());
console.log(`wrote ${files.size} schemas to spec/schemas/ and spec/generated/api.d.ts`);
