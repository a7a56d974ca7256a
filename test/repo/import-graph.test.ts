/**
 * The import graph of the repository's own TypeScript, read by madge (type-only and dynamic
 * imports included), enforces the floor plan of ARCHITECTURE.md:
 *   - core/ imports nothing else of the project (only node: modules and packages);
 *   - each wing (contracts/, load/, fuzz/, compat/, report/, server/, examples/) imports only
 *     core/ and itself — load/lib/, the k6-safe core of load, only itself and the core files
 *     k6 can load too (K6_SAFE_CORE: they import nothing at all);
 *   - only the run floor (run/, and the entries bin/ and playwright.config.ts) imports wings,
 *     server/ and examples/; nothing of the product imports run/ (tests, scripts and bench may);
 *   - no import circles anywhere; no product code imports test code (test/, `*.test.ts`,
 *     `*.spec.ts`). scripts/ is the project's own tooling and may reread test data.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import madge from 'madge';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = [
  'core',
  'contracts',
  'load',
  'fuzz',
  'compat',
  'report',
  'server',
  'run',
  'scripts',
  'bench',
  'examples',
];

/** The wings: each imports only core/ and itself. */
const WINGS = ['contracts', 'load', 'fuzz', 'compat', 'report', 'server', 'examples'];
/**
 * Core files load/lib/ may import: the load verdicts' rules live in core beside the checks' (the
 * fault catalogue reads them too), and k6 can run them because they import nothing.
 */
const K6_SAFE_CORE = ['core/checks/load-verdicts.ts'];
/** The run floor: the only code that may import wings; nothing of the product imports it. */
const RUN = /^(run\/|playwright\.config\.ts$)/;
/** Code that may import anything (never imported by the product). */
const TOOLING = /^(test\/|scripts\/|bench\/)|\.test\.ts$/;

/** Test code: the test folder, node:test files and Playwright specs. Product code must not depend on it. */
const TEST_CODE = /^test\/|\.(test|spec)\.ts$/;

/** Every file under `dir` (relative to the repository root). */
function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(ROOT.length + 1));
}

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

  /** Every edge `from → to` between files of the product that the floor plan forbids. */
  function floorViolations(deps: Record<string, string[]>): string[] {
    const top = (f: string) => f.split('/')[0]!;
    const allowed = (from: string, to: string): boolean => {
      if (TOOLING.test(from) || RUN.test(from)) return true;
      if (RUN.test(to)) return false;
      if (from.startsWith('load/lib/'))
        return to.startsWith('load/lib/') || K6_SAFE_CORE.includes(to);
      if (top(from) === 'core') return top(to) === 'core';
      if (WINGS.includes(top(from))) return top(to) === top(from) || top(to) === 'core';
      return false;
    };
    return Object.entries(deps)
      .filter(([from]) => !from.endsWith('.json'))
      .flatMap(([from, tos]) =>
        tos.filter((to) => !allowed(from, to)).map((to) => `${from} → ${to}`),
      );
  }

  test('the floors: core imports nothing of the project, a wing only core, only run/ the wings', async () => {
    graph ??= await importGraph(ROOT, [...FOLDERS, 'playwright.config.ts']);
    assert.deepEqual(floorViolations(graph.deps), [], 'imports across the floor plan');
  });

  test('the core files load/lib imports import nothing (k6 loads them)', async () => {
    graph ??= await importGraph(ROOT, [...FOLDERS, 'playwright.config.ts']);
    for (const f of K6_SAFE_CORE) {
      assert.ok(f in graph.deps, `${f} is not in the graph`);
      assert.deepEqual(graph.deps[f], [], `${f} must import nothing: k6 runs it`);
      const text = readFileSync(join(ROOT, f), 'utf8');
      assert.doesNotMatch(text, /^\s*(import|export)[^;]*\sfrom\s/m, `${f} imports a package`);
    }
  });

  test('the floor check catches each kind of crossing', () => {
    const bad = {
      'core/a.ts': ['report/b.ts'],
      'report/b.ts': ['compat/c.ts', 'core/a.ts'],
      'load/lib/d.ts': ['core/a.ts'],
      'fuzz/e.ts': ['run/f.ts', 'server/s.ts', 'examples/x.ts'],
      'run/f.ts': ['server/s.ts', 'fuzz/e.ts', 'examples/x.ts'],
      'test/t.ts': ['run/f.ts'],
    };
    assert.deepEqual(floorViolations(bad), [
      'core/a.ts → report/b.ts',
      'report/b.ts → compat/c.ts',
      'load/lib/d.ts → core/a.ts',
      'fuzz/e.ts → run/f.ts',
      'fuzz/e.ts → server/s.ts',
      'fuzz/e.ts → examples/x.ts',
    ]);
  });

  test('no import circles', async () => {
    graph ??= await importGraph(ROOT, FOLDERS);
    assert.deepEqual(
      graph.circles.map((c) => c.join(' → ')),
      [],
      'import circles (each listed from its first file back to it)',
    );
  });

  test('product code imports no test code', async () => {
    graph ??= await importGraph(ROOT, FOLDERS);
    const edges = Object.entries(graph.deps)
      .filter(([from]) => !TEST_CODE.test(from) && !from.startsWith('scripts/'))
      .flatMap(([from, tos]) =>
        tos.filter((to) => TEST_CODE.test(to)).map((to) => `${from} → ${to}`),
      );
    assert.deepEqual(edges, [], 'product code importing test code (move the code out of test/)');
  });

  test('the fuzz CLI runs functions, never test files', () => {
    for (const file of ['fuzz/command.ts', 'fuzz/deployment-command.ts', ...walk('fuzz')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      assert.doesNotMatch(text, /node:child_process|['"][^'"\n]*\.test\.ts|['"]--test/, file);
    }
  });

  test('fuzz/ holds no tests (npm test runs those under test/ and examples/)', () => {
    assert.deepEqual(
      walk('fuzz').filter((f) => /\.test\.ts$/.test(f)),
      [],
    );
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
