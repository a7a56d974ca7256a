/**
 * A suite stopped as it ends keeps its report files (contracts/reports-outlive-stop.ts).
 *
 * The harness stops Playwright with SIGINT to its process group (contracts-step.ts). A SIGINT
 * that reached the runner while its reporters wrote their files ended it there: the console had
 * printed "N passed", but playwright.json was never written and the run reported 0 tests
 * (gate.test.ts's 'goes silent' case, about one CI run in three). Here the stop is sent at that
 * moment on purpose — when the console prints the summary — and every report file must exist,
 * with every test that ran. And should the stop's grace run out while the report is written (the
 * SIGKILL), a cut-short report of a stopped suite counts as no rows rather than ending the area.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readPlaywrightTests } from '../../contracts/collect.ts';
import { STOP_GRACE_MS, suiteTests } from '../../contracts/contracts-step.ts';
import { ProcessGroup } from '../../core/process/process-group.ts';

const root = new URL('../../', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'pw-stop-'));
after(() => rmSync(out, { recursive: true, force: true }));

test('SIGINT to the group as the suite ends: every report file is written, every test in it', async () => {
  // No target: the suite's workers start the embedded reference deployment.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')),
  );
  const group = new ProcessGroup(
    process.execPath,
    [
      join(root, 'node_modules/@playwright/test/cli.js'),
      'test',
      'contracts/validation.spec.ts',
      '--grep',
      'body an array|malformed JSON',
    ],
    {
      cwd: root,
      env: { ...env, HARNESS_OUT_DIR: out, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
    'SIGINT',
  );
  let output = '';
  let stopped = false;
  group.child.stdout?.on('data', (d: Buffer) => {
    output += String(d);
    // The console reporter prints its counts first in the reporters' onEnd; the JSON, JUnit
    // and HTML reporters write after it.
    if (!stopped && /\b\d+ passed\b/.test(output)) {
      stopped = true;
      void group.stop(STOP_GRACE_MS);
    }
  });
  group.child.stderr?.resume();
  const exit = new Promise<[number | null, NodeJS.Signals | null]>((r) =>
    group.child.once('exit', (code, signal) => r([code, signal])),
  );
  await group.ended;
  const [code, signal] = await exit;
  assert.ok(stopped, `the summary was printed and the stop sent:\n${output}`);
  assert.equal(signal, null, `the runner was not ended by the signal (exit ${code}, ${signal})`);
  for (const f of ['playwright.json', 'junit-contracts.xml', 'playwright-html/index.html'])
    assert.ok(existsSync(join(out, f)), `${f} was written`);
  const rows = readPlaywrightTests(join(out, 'playwright.json'));
  const passed = Number(/\b(\d+) passed\b/.exec(output)?.[1]);
  assert.ok(passed >= 2, output);
  assert.equal(rows.filter((r) => r.status === 'passed').length, passed);
});

test('a cut-short report counts as no rows for a stopped suite, and is an error for one that ended by itself', () => {
  const cut = join(out, 'cut-short.json');
  writeFileSync(cut, '{"config": {}, "suites": [{"title": "tickets-create.spec.ts", "specs": [');
  assert.deepEqual(suiteTests(cut, true), []);
  assert.throws(() => suiteTests(cut, false), SyntaxError);
  assert.deepEqual(suiteTests(join(out, 'never-written.json'), false), []);
});
