/**
 * The import graph of the repository's own TypeScript, read by madge (type-only and dynamic
 * imports included): no import circles anywhere, and the harness library (`src/`) never imports
 * from a test folder — except the imports listed in KNOWN_SRC_TO_TEST, which predate the rule
 * and move out in the later layout refactor (issue 11). A new one fails; a fixed one must be
 * removed from the list, so the list cannot go stale and hide a re-introduction.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import madge from 'madge';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'server', 'load', 'contracts', 'fuzz', 'scripts', 'bench', 'examples'];

/** Folders whose code is test code: the library must not depend on it. */
const TEST_CODE = /^(test|fuzz)\/|\.test\.ts$/;

/** src/ → fuzz/ imports that exist today (file → file). Do not add to this list. */
const KNOWN_SRC_TO_TEST = [
  'src/fuzz/api-input.ts → fuzz/arbitraries/api-body-arb.ts',
  'src/fuzz/api-input.ts → fuzz/seed.ts',
  'src/fuzz/delivery-check.ts → fuzz/arbitraries/ticket-content-arb.ts',
  'src/fuzz/delivery-check.ts → fuzz/seed.ts',
  'src/fuzz/spec-schemas.ts → fuzz/arbitraries/schema-arb.ts',
  'src/receiver-fuzz/properties.ts → fuzz/arbitraries/body-arb.ts',
  'src/receiver-fuzz/properties.ts → fuzz/arbitraries/careless-body-arb.ts',
  'src/receiver-fuzz/properties.ts → fuzz/arbitraries/json-text-arb.ts',
  'src/receiver-fuzz/properties.ts → fuzz/arbitraries/signature-mutation-arb.ts',
  'src/receiver-fuzz/run-receiver-fuzz.ts → fuzz/seed.ts',
];

interface Graph {
  /** file → files it imports, paths relative to the base directory. */
  deps: Record<string, string[]>;
  circles: string[][];
  /** Imports madge could not resolve to a file. */
  unresolved: string[];
}

async function importGraph(baseDir: string, folders: string[]): Promise<Graph> {
  const res = await madge(
    folders.map((f) => join(baseDir, f)),
    {
      baseDir,
      fileExtensions: ['ts', 'mts'],
      excludeRegExp: [/\.d\.ts$/, /node_modules/],
      tsConfig: join(ROOT, 'tsconfig.json'),
      detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false } },
    },
  );
  return { deps: res.obj(), circles: res.circular(), unresolved: res.warnings().skipped };
}

describe('import graph', () => {
  let graph: Graph;
  test('madge reads the whole tree and resolves every relative import', async () => {
    graph = await importGraph(ROOT, FOLDERS);
    const files = Object.keys(graph.deps);
    assert.ok(files.length > 150, `only ${files.length} files read`);
    for (const f of FOLDERS)
      assert.ok(
        files.some((x) => x.startsWith(`${f}/`)),
        `no file of ${f}/ in the graph`,
      );
    // A relative import madge cannot follow could hide a circle: only packages may be external.
    const relative = graph.unresolved.filter((s) => s.startsWith('.') || s.startsWith('/'));
    assert.deepEqual(relative, [], 'unresolved relative imports');
    assert.ok(
      graph.deps['server/guard.ts']?.includes('server/transport-errors.ts'),
      'the scan sees .ts-suffixed relative imports',
    );
  });

  test('no import circles', async () => {
    graph ??= await importGraph(ROOT, FOLDERS);
    assert.deepEqual(
      graph.circles.map((c) => c.join(' → ')),
      [],
      'import circles (each listed from its first file back to it)',
    );
  });

  test('src/ imports nothing from a test folder beyond the known list', async () => {
    graph ??= await importGraph(ROOT, FOLDERS);
    const edges = Object.entries(graph.deps)
      .filter(([from]) => from.startsWith('src/'))
      .flatMap(([from, tos]) =>
        tos.filter((to) => TEST_CODE.test(to)).map((to) => `${from} → ${to}`),
      )
      .sort();
    const fresh = edges.filter((e) => !KNOWN_SRC_TO_TEST.includes(e));
    const gone = KNOWN_SRC_TO_TEST.filter((e) => !edges.includes(e));
    assert.deepEqual(fresh, [], 'new imports of test code from src/ (move the code into src/)');
    assert.deepEqual(gone, [], 'fixed imports still listed in KNOWN_SRC_TO_TEST (remove them)');
  });

  test('the scan finds a circle through .ts-suffixed, type-only and dynamic imports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      const w = (f: string, text: string) => writeFileSync(join(dir, f), text);
      w('a.ts', "import { b } from './b.ts';\nexport const a = () => b;\n");
      w('b.ts', "import type { C } from './c.ts';\nexport const b: C = 1;\n");
      w('c.ts', "export type C = number;\nexport const c = () => import('./a.ts');\n");
      w('d.ts', "import { a } from './a.ts';\nexport const d = a;\n");
      const g = await importGraph(dir, ['.']);
      assert.deepEqual(g.circles, [['a.ts', 'b.ts', 'c.ts']]);
      assert.deepEqual(g.deps['d.ts'], ['a.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
