/**
 * `$ref`s into other files are read relative to the file that holds them (also from git), and a
 * ref that cannot be resolved stops the run with one clear line (exit 2) instead of a silent
 * "no change".
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { diffSpecs, loadSpec } from '../../compat/diff/index.ts';

const dir = new URL('../fixtures/diff-refs/', import.meta.url).pathname;
const repoRoot = new URL('../../', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'diff-refs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const rules = (a: string, b: string, cwd?: string) =>
  diffSpecs(loadSpec(a, cwd), loadSpec(b, cwd))
    .map((f) => `${f.level} ${f.rule}`)
    .sort();

const EXPECTED = [
  'ERR request-range-tightened',
  'ERR response-property-removed',
  'INFO response-enum-restricted',
];

describe('external and missing $refs', () => {
  test('changes inside files reached by $ref are reported (recursive refs included)', () => {
    assert.deepEqual(rules(join(dir, 'v1/openapi.yaml'), join(dir, 'v2/openapi.yaml')), EXPECTED);
    const [removed] = diffSpecs(
      loadSpec(join(dir, 'v1/openapi.yaml')),
      loadSpec(join(dir, 'v2/openapi.yaml')),
    ).filter((f) => f.rule === 'response-property-removed');
    assert.match(removed!.message, /`Pet\.name`/);
  });

  test('the same from git revisions (REF:path), refs read from the same revision', () => {
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], {
        cwd: tmp,
        stdio: 'pipe',
      });
    git('init', '-q');
    cpSync(join(dir, 'v1'), join(tmp, 'spec'), { recursive: true });
    git('add', '.');
    git('commit', '-q', '-m', 'v1');
    cpSync(join(dir, 'v2'), join(tmp, 'spec'), { recursive: true });
    git('commit', '-qam', 'v2');
    assert.deepEqual(rules('HEAD~1:spec/openapi.yaml', 'HEAD:spec/openapi.yaml', tmp), EXPECTED);
  });

  test('a missing component, a missing file and a remote ref are errors naming the ref', () => {
    assert.throws(
      () => loadSpec(join(dir, 'broken/missing-component.yaml')),
      /unresolvable \$ref '#\/components\/schemas\/Nowhere' at \/paths\/~1t\/get\/responses\/200\/content\/application~1json\/schema/,
    );
    assert.throws(
      () => loadSpec(join(dir, 'broken/missing-file.yaml')),
      /unresolvable \$ref '\.\/nowhere\.yaml#\/Thing'.*no such file/,
    );
  });

  test('the CLI exits 2 with one line on stderr for an unresolvable $ref', () => {
    const r = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'bin/harness.mjs'),
        'diff-spec',
        join(dir, 'v1/openapi.yaml'),
        join(dir, 'broken/missing-component.yaml'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      /^harness diff-spec: unresolvable \$ref '#\/components\/schemas\/Nowhere'/,
    );
  });
});
