/**
 * `--env-file` is read by the harness, not by Node: a missing or malformed file is one line in
 * our words and exit 2 — through bin/harness.mjs run as an executable (npx, PATH) and as the npm
 * scripts call it (`node bin/harness.mjs -- run`). Node 20 itself looks for `--env-file` anywhere
 * on its command line before a `--`, even after the script name: `node bin/harness.mjs run
 * --env-file FILE` works with a file that exists (Node leaves it to us), and with a missing one
 * Node exits 9 before any code of ours runs — what the README says, checked here so that a Node
 * that stops doing so is noticed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'bin', 'harness.mjs');
const dir = mkdtempSync(join(tmpdir(), 'env-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The two ways the harness is started: the executable (sh → node --) and the npm scripts' form. */
const STARTS: [string, (args: string[]) => ReturnType<typeof spawnSync>][] = [
  [
    'bin/harness.mjs as an executable',
    (args) => spawnSync(bin, args, { cwd: root, encoding: 'utf8' }),
  ],
  [
    'node bin/harness.mjs -- (npm start)',
    (args) => spawnSync(process.execPath, [bin, '--', ...args], { cwd: root, encoding: 'utf8' }),
  ],
];

describe('--env-file errors are the harness’s own', () => {
  const missing = join(dir, 'staging.env');
  const malformed = join(dir, 'malformed.env');
  writeFileSync(malformed, 'HARNESS_STRICT=1\nthis line is not KEY=VALUE\n');

  for (const [how, start] of STARTS) {
    test(`a missing file: one line, exit 2 (${how})`, () => {
      for (const command of ['run', 'load']) {
        const r = start([command, '--env-file', missing]);
        assert.equal(r.status, 2, `${command}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, `harness ${command}: --env-file ${missing}: no such file\n`);
      }
    });

    test(`a malformed file: one line naming the line, exit 2 (${how})`, () => {
      const r = start(['run', '--env-file', malformed]);
      assert.equal(r.status, 2, String(r.stderr));
      assert.equal(r.stderr, `harness run: ${malformed}:2: expected KEY=VALUE\n`);
    });
  }

  test('a malformed variable in a readable file is refused before anything runs', () => {
    const bad = join(dir, 'bad-url.env');
    writeFileSync(bad, 'HARNESS_BASE_URL=not a url\n');
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')),
    );
    const args = ['run', '--env-file', bad, '--skip', 'contracts,load,fuzz', '--out', dir];
    const r = spawnSync(process.execPath, [bin, '--', ...args], {
      cwd: root,
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^harness run: HARNESS_BASE_URL is not a URL: 'not a url'/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  test('`node bin/harness.mjs run --env-file FILE` (no --): an existing file is the harness’s to read', () => {
    const r = spawnSync(process.execPath, [bin, 'run', '--env-file', malformed], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr, `harness run: ${malformed}:2: expected KEY=VALUE\n`);
  });

  test('`node bin/harness.mjs run --env-file MISSING` (no --): Node’s own exit 9, as the README says', () => {
    const r = spawnSync(process.execPath, [bin, 'run', '--env-file', missing], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(r.status, 9, r.stderr);
    assert.match(r.stderr, /^\S*node: \S*staging\.env: not found\n$/);
  });
});
