/**
 * `npx playwright test` alone leaves a consistent report directory: it writes to its own
 * (reports/playwright/, or HARNESS_OUT_DIR), emptied at the start so nothing of an older run
 * stays beside this one's, never touches reports/latest/ (the last harness run's one-page
 * report) and says where its files are. Its console shows one short line per test; the check
 * tags are in the report files, and HARNESS_CONSOLE_TAGS=1 brings them back to the console.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const root = new URL('../../', import.meta.url).pathname;
const base = mkdtempSync(join(tmpdir(), 'pw-out-'));
after(() => rmSync(base, { recursive: true, force: true }));

function playwright(out: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/@playwright/test/cli.js'),
      'test',
      'contracts/tickets-list.spec.ts',
      '--grep',
      'filters by status',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, HARNESS_OUT_DIR: out, FORCE_COLOR: '0', ...env },
    },
  );
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('npx playwright test alone', () => {
  const out = join(base, 'playwright');

  test('writes its own directory, emptied first, and says where', () => {
    playwright(out);
    const stale = join(out, 'index.html');
    writeFileSync(stale, '<p>an older run</p>');
    const stdout = playwright(out);
    assert.ok(!existsSync(stale), 'a file of an older run is gone');
    for (const f of ['playwright.json', 'junit-contracts.xml', 'playwright-html/index.html'])
      assert.ok(existsSync(join(out, f)), f);
    assert.match(
      stdout,
      new RegExp(`reports of this run: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`),
    );
    assert.match(
      stdout,
      /the one-page report with load, fuzz and compatibility: npm start \(reports\/latest\/\)/,
    );
    // The tags are in the report files.
    assert.match(readFileSync(join(out, 'playwright.json'), 'utf8'), /"tickets\.filter-applied"/);
  });

  test('one short line per test; HARNESS_CONSOLE_TAGS=1 shows the tags', () => {
    const plain = playwright(out)
      .split('\n')
      .find((l) => l.includes('filters by status'));
    assert.ok(plain, 'the test line');
    assert.match(
      plain,
      /^ {2}✓ 1 tickets-list\.spec\.ts:\d+ › list tickets › filters by status and priority \(\d+ ms\)$/,
    );
    assert.doesNotMatch(plain, /@/);
    const tagged = playwright(out, { HARNESS_CONSOLE_TAGS: '1' })
      .split('\n')
      .find((l) => l.includes('filters by status'));
    assert.match(tagged ?? '', /@tickets\.filter-applied @tickets\.filter-includes/);
  });

  test('refuses to empty a directory the harness did not make', () => {
    const foreign = join(base, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'keep.txt'), 'mine');
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--grep', 'filters by status'],
      { cwd: root, encoding: 'utf8', env: { ...process.env, HARNESS_OUT_DIR: foreign } },
    );
    assert.notEqual(r.status, 0);
    assert.match(
      `${r.stdout}${r.stderr}`,
      /refusing to clear .*foreign: not a harness output directory/,
    );
    assert.equal(readFileSync(join(foreign, 'keep.txt'), 'utf8'), 'mine', 'nothing deleted');
  });
});
