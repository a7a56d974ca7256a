/** `harness diff-spec`: exit status by --fail-on, the three formats, and `REF:path` via git. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { run } from '../../compat/commands/diff-spec.ts';
import { loadSpec } from '../../compat/diff/index.ts';

const fx = (name: string, side: 'old' | 'new') =>
  new URL(`../fixtures/diff/${name}/${side}.yaml`, import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'diff-spec-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const out = join(tmp, `out-${Math.random().toString(36).slice(2)}`);
  const code = await run([...args, '--out', out]);
  return { code, out: readFileSync(out, 'utf8') };
}

describe('harness diff-spec', () => {
  test('exits 1 on an ERR finding and writes Markdown by default', async () => {
    const name = 'response-property-removed';
    const r = await cli([fx(name, 'old'), fx(name, 'new')]);
    assert.equal(r.code, 1);
    assert.match(r.out, /^## OpenAPI compatibility report/);
    assert.match(r.out, /\| `response-property-removed` \|/);
  });

  test('a success status replaced (201 → 200) exits 1 with an ERR', async () => {
    const name = 'response-success-status-removed--201-to-200';
    const r = await cli([fx(name, 'old'), fx(name, 'new'), '--format', 'json']);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out);
    assert.deepEqual(
      report.findings
        .filter((f: { level: string }) => f.level === 'ERR')
        .map((f: { rule: string }) => f.rule),
      ['response-success-status-removed'],
    );
  });

  test('exits 0 on a negative control', async () => {
    const name = 'negative--inline-to-ref';
    const r = await cli([fx(name, 'old'), fx(name, 'new'), '--format', 'json']);
    assert.equal(r.code, 0);
    const report = JSON.parse(r.out);
    assert.deepEqual(report.findings, []);
    assert.equal(report.breaking, false);
  });

  test('--fail-on WARN turns a WARN-only diff into a failure', async () => {
    const name = 'request-parameter-removed';
    assert.equal((await cli([fx(name, 'old'), fx(name, 'new')])).code, 0);
    assert.equal((await cli([fx(name, 'old'), fx(name, 'new'), '--fail-on', 'WARN'])).code, 1);
  });

  test('--level moves a rule below the failing level', async () => {
    const name = 'response-enum-value-added';
    assert.equal((await cli([fx(name, 'old'), fx(name, 'new')])).code, 1);
    const r = await cli([fx(name, 'old'), fx(name, 'new'), '--level', 'enum-value-added=WARN']);
    assert.equal(r.code, 0);
    assert.match(r.out, /### 🟠 WARN \(1\)/);
    await assert.rejects(
      run([fx(name, 'old'), fx(name, 'new'), '--level', 'nope=WARN']),
      /unknown rule/,
    );
  });

  test('JUnit marks failing findings as failures and escapes XML', async () => {
    const name = 'webhook-enum-value-added';
    const r = await cli([fx(name, 'old'), fx(name, 'new'), '--format', 'junit']);
    assert.equal(r.code, 1);
    assert.match(r.out, /<testsuites name="diff-spec" tests="1" failures="1" skipped="0">/);
    assert.match(r.out, /<failure type="ERR" message="[^"<>]*&quot;b&quot;/);
  });

  test('the assumption a finding touches shows in the Markdown', async () => {
    const name = 'assumed--property';
    const r = await cli([fx(name, 'old'), fx(name, 'new')]);
    assert.match(r.out, /assumed \(U3\)/);
  });

  test('misuse throws a clear error', async () => {
    await assert.rejects(run(['only-one.yaml']), /expected two specs/);
    await assert.rejects(run(['a', 'b', '--format', 'html']), /--format must be one of/);
    await assert.rejects(run(['a', 'b', '--fail-on', 'BAD']), /--fail-on must be one of/);
    await assert.rejects(run(['/nonexistent/a.yaml', 'b']), /no such file/);
  });

  test('the precompiled entry (bin/harness.mjs) prints exactly what the tsx one does', () => {
    const name = 'response-success-status-removed--201-to-200';
    const bin = new URL('../../bin/harness.mjs', import.meta.url).pathname;
    const go = (env: NodeJS.ProcessEnv) =>
      spawnSync(
        process.execPath,
        [bin, 'diff-spec', fx(name, 'old'), fx(name, 'new'), '--format', 'json'],
        {
          encoding: 'utf8',
          env: { ...process.env, ...env },
        },
      );
    const fast = go({});
    const slow = go({ HARNESS_NO_PRECOMPILE: '1' });
    assert.equal(fast.status, 1, fast.stderr);
    assert.equal(slow.status, 1, slow.stderr);
    assert.equal(fast.stdout, slow.stdout);
    assert.match(fast.stdout, /response-success-status-removed/);
  });

  test('a file that is not an OpenAPI document is refused: exit 2, one line naming it', () => {
    const bin = new URL('../../bin/harness.mjs', import.meta.url).pathname;
    const hello = join(tmp, 'hello.yaml');
    writeFileSync(hello, 'hello: world\n');
    const swagger = join(tmp, 'swagger.yaml');
    writeFileSync(swagger, "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n");
    const good = fx('path-removed', 'old');
    for (const [args, message] of [
      [[good, hello], /'[^']*hello\.yaml' is not an OpenAPI document: no `openapi` version field/],
      [[hello, good], /hello\.yaml' is not an OpenAPI document/],
      [[good, swagger], /is Swagger 2\.0, not OpenAPI 3\.x/],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, 'diff-spec', ...args], { encoding: 'utf8' });
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '', 'no report for a refused input');
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  test('refused, exit 2 and one line: no paths, paths of the wrong type, a directory, binary bytes', () => {
    const bin = new URL('../../bin/harness.mjs', import.meta.url).pathname;
    const put = (name: string, body: string | Buffer) => {
      const f = join(tmp, name);
      writeFileSync(f, body);
      return f;
    };
    const good = fx('path-removed', 'old');
    const dir = join(tmp, 'a-directory');
    mkdirSync(dir, { recursive: true });
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x0a, 0x2d]);
    for (const [file, message] of [
      [
        put('bare.json', '{"openapi":"3.0.0"}'),
        /is not a valid OpenAPI 3\.0\.0 document: it has no `paths` \(required in 3\.0\)/,
      ],
      [
        put('hello.yaml', 'openapi: 3.0.3\npaths: hello\n'),
        /`paths` must be a mapping, is a string/,
      ],
      [put('list.yaml', 'openapi: 3.1.0\npaths: [a]\n'), /`paths` must be a mapping, is a list/],
      [
        put('none31.yaml', "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"),
        /has none of `paths`, `webhooks`, `components` \(3\.1 requires one\)/,
      ],
      [dir, /is a directory, not a spec file/],
      [put('prog.bin', elf), /is not a text file \(binary content\)/],
      [
        put('latin1.yaml', Buffer.from('openapi: 3.1.0\ninfo: {title: caf\xe9}\n', 'latin1')),
        /is not a text file/,
      ],
      [
        put('broken.yaml', 'openapi: 3.1.0\npaths: {a: [\n'),
        /^harness diff-spec: cannot parse '[^']*broken\.yaml': /,
      ],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, 'diff-spec', good, file], { encoding: 'utf8' });
      assert.equal(r.status, 2, `${file}: ${r.stderr}`);
      assert.equal(r.stdout, '', 'no report for a refused input');
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    // 3.1 without paths but with webhooks is a document.
    const hooks = put(
      'hooks.yaml',
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nwebhooks: {}\n",
    );
    assert.equal(spawnSync(process.execPath, [bin, 'diff-spec', hooks, hooks]).status, 0);
  });

  test('reads REF:path from git', () => {
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'spec'), { recursive: true });
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], {
        cwd: repo,
        stdio: 'pipe',
      });
    git('init', '-q');
    writeFileSync(join(repo, 'spec', 'openapi.yaml'), readFileSync(fx('path-removed', 'old')));
    git('add', '.');
    git('commit', '-q', '-m', 'v1');
    const fromGit = loadSpec('HEAD:spec/openapi.yaml', repo);
    assert.deepEqual(fromGit, loadSpec(fx('path-removed', 'old')));
    assert.throws(() => loadSpec('HEAD:spec/missing.yaml', repo), /from git/);
  });
});
