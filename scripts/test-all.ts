/**
 * `npm test`: every suite of the project, one after another, and one closing line
 * `N passed, N failed, N skipped` summed over all of them (CI reads that line).
 *
 * Suites that are not test runners (lint, typecheck, spec lint, drift) count as one test each:
 * they pass or fail as a whole. Test runners report their own counts, read from a machine
 * format (TAP for node:test, JSON for Playwright) rather than scraped from the console.
 *
 * Usage: tsx scripts/test-all.ts [--only lint,typecheck,spec,unit,contracts]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findK6 } from '../load/k6-engine.ts';
import { type TestRow, readPlaywrightTests } from '../contracts/collect.ts';
import { type Failure, formatFailures, playwrightFailures, tapFailures } from './failure-digest.ts';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'reports', 'latest', 'test');
mkdirSync(outDir, { recursive: true });

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

function findFiles(dir: string, suffix: string): string[] {
  const abs = join(root, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const full = join(abs, name);
    if (statSync(full).isDirectory()) out.push(...findFiles(relative(root, full), suffix));
    else if (name.endsWith(suffix)) out.push(relative(root, full));
  }
  return out.sort();
}

/** Every failed test of the run, repeated above the closing line (scripts/failure-digest.ts). */
const failures: Failure[] = [];

const bin = (name: string) => join(root, 'node_modules', '.bin', name);

async function whole(name: string, cmd: string, args: string[]): Promise<Counts> {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const code = await run(cmd, args);
  console.log(`=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`}`);
  if (code !== 0)
    failures.push({
      name,
      message: `${cmd} ${args.join(' ')} exited ${code} (its output is above)`,
    });
  return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
}

/**
 * The load suites measure timing (pacing lag, bucket estimates) and retry once only on a
 * demonstrably busy machine; they run after everything else, one file at a time, so the
 * detection matrix's Playwright workers are not competing with them for two cores.
 */
const isTimingSuite = (f: string) => f.startsWith(join('test', 'load') + '/');

async function nodeTests(): Promise<Counts> {
  const files = [...findFiles('test', '.test.ts'), ...findFiles('examples', '.test.ts')];
  console.log(`\n=== unit, integration and property tests (node:test, ${files.length} files)`);
  // Said up front, so a CI log shows at once whether k6 ran for real.
  try {
    const k6 = findK6({ shared: true });
    console.log(
      k6
        ? `k6 suites run with ${k6.path} (from ${k6.from})`
        : 'k6 suites skipped: no k6 (set K6_BIN, put k6 on PATH, or provide ../shared/bin/k6)',
    );
  } catch (e) {
    console.log(`k6 suites will fail: ${(e as Error).message}`);
  }
  const rest = files.filter((f) => !isTimingSuite(f));
  const timing = files.filter(isTimingSuite);
  const a = await nodeTestRun('everything but the load suites', rest, 2, 'node-test.tap');
  const b = await nodeTestRun('load suites, alone', timing, 1, 'node-test-load.tap');
  return add(a, b);
}

async function nodeTestRun(
  label: string,
  files: string[],
  concurrency: number,
  tapName: string,
): Promise<Counts> {
  if (files.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  console.log(`\n--- ${label} (${files.length} files, ${concurrency} at a time)`);
  const tap = join(outDir, tapName);
  const code = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { FC_SEED: process.env.FC_SEED ?? '' },
  );
  let text = '';
  try {
    text = readFileSync(tap, 'utf8');
  } catch {
    // no TAP at all: the runner itself broke (counted below)
  }
  const num = (key: string) => Number(text.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
  const counts = {
    passed: num('pass'),
    failed: num('fail') + num('cancelled'),
    skipped: num('skipped') + num('todo'),
  };
  failures.push(...tapFailures(text));
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1; // the runner itself broke
    failures.push({
      name: `${label}: the test runner`,
      message: `exited ${code} with no failed test in its TAP`,
    });
  }
  return counts;
}

async function contracts(): Promise<Counts> {
  if (findFiles('contracts', '.spec.ts').length === 0) return { passed: 0, failed: 0, skipped: 0 };
  console.log('\n=== contract suite against the embedded reference deployment (Playwright)');
  const json = join(outDir, 'playwright.json');
  // A report left by an earlier run must not be read as this run's (a runner that breaks before
  // writing one would otherwise count the old run's tests).
  rmSync(json, { force: true });
  const code = await run(bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: json });
  // One read of the report gives both the counts and the failures (the harness's own reader).
  let rows: TestRow[];
  try {
    rows = readPlaywrightTests(json);
  } catch (e) {
    rows = [];
    failures.push({ name: "contracts: Playwright's JSON report", message: String(e) });
  }
  failures.push(...playwrightFailures(rows));
  const counts = {
    passed: rows.filter((t) => t.status === 'passed').length,
    failed: rows.filter((t) => t.status !== 'passed' && t.status !== 'skipped').length,
    skipped: rows.filter((t) => t.status === 'skipped').length,
  };
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1; // the runner itself broke
    failures.push({
      name: 'contracts: the Playwright runner',
      message: `exited ${code} with no failed test in ${json}`,
    });
  }
  return counts;
}

const suites: Record<string, () => Promise<Counts>> = {
  lint: () => whole('lint', bin('biome'), ['check', '.']),
  typecheck: async () => {
    const a = await whole('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
    const b = await whole('typecheck k6 scripts', bin('tsc'), [
      '--noEmit',
      '-p',
      'load/tsconfig.json',
    ]);
    return add(a, b);
  },
  spec: () =>
    whole('spec lint (Redocly)', bin('redocly'), ['lint', '--format=stylish', 'spec/openapi.yaml']),
  unit: nodeTests,
  contracts,
};

function add(a: Counts, b: Counts): Counts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
  };
}

const onlyIdx = process.argv.indexOf('--only');
const only = onlyIdx > 0 ? (process.argv[onlyIdx + 1] ?? '').split(',') : Object.keys(suites);
const unknown = only.filter((s) => !(s in suites));
if (unknown.length > 0) {
  console.error(
    `unknown suite(s): ${unknown.join(', ')}; known: ${Object.keys(suites).join(', ')}`,
  );
  process.exit(2);
}

let total: Counts = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
for (const name of only) {
  const c = await suites[name]!();
  lines.push(`  ${name.padEnd(10)} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  total = add(total, c);
}
const digest = formatFailures(failures);
if (digest) console.log(digest);
console.log(`\n${lines.join('\n')}`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
