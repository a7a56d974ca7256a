/**
 * Every command explains itself: `harness <command> --help` (and each `fuzz` subcommand's) exits
 * 0 and lists its options, the variables it reads, examples and the exit codes 0/1/2, within 100
 * columns; an unknown option is refused with the usage, exit 2. Run as a user runs them, through
 * bin/harness.mjs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ENV_VARS } from '../../core/variables.ts';
import { COMMANDS } from '../../run/commands.ts';
import type { CommandSpec } from '../../core/cli/command-spec.ts';
import { SUBCOMMANDS } from '../../fuzz/command.ts';

const root = new URL('../../', import.meta.url).pathname;
const bin = `${root}bin/harness.mjs`;

function harness(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, '--', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every command of main.ts, and each fuzz subcommand, with the spec its help is written from. */
async function everyCommand(): Promise<[string[], CommandSpec][]> {
  const out: [string[], CommandSpec][] = [];
  for (const [name, c] of Object.entries(COMMANDS)) out.push([[name], (await c.load()).spec]);
  for (const [sub, spec] of Object.entries(SUBCOMMANDS)) out.push([['fuzz', sub], spec]);
  return out;
}

const commands = await everyCommand();

describe('harness <command> --help', () => {
  test('main.ts lists the seven commands', () => {
    assert.deepEqual(Object.keys(COMMANDS).sort(), [
      'compare',
      'detect',
      'diff-spec',
      'fuzz',
      'load',
      'run',
      'serve',
    ]);
  });

  for (const [args, spec] of commands) {
    test(`harness ${args.join(' ')} --help`, () => {
      const r = harness(...args, '--help');
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      const help = r.out;
      assert.match(help, new RegExp(`^usage: harness ${args.join(' ')}\\b`));
      for (const section of ['options:', 'environment:', 'examples:', 'exit status:'])
        assert.ok(help.includes(`\n${section}\n`), `section ${section}`);
      for (const name of [...Object.keys(spec.options), 'help'])
        assert.match(help, new RegExp(`\\n  (-\\w, )?--${name}\\b`), `option --${name} listed`);
      for (const v of spec.env) assert.match(help, new RegExp(`\\n  ${v}\\b`), `${v} listed`);
      const exit = help.slice(help.indexOf('\nexit status:\n'));
      for (const code of ['0', '1', '2']) assert.match(exit, new RegExp(`\\n  ${code}  \\S`));
      assert.match(exit, /\n {2}2 {2}could not run: a usage error/);
      assert.ok(spec.examples.length > 0, 'at least one example');
      for (const line of help.split('\n'))
        assert.ok(line.length <= 100, `${line.length} columns: ${line}`);
    });
  }

  test('run --help lists every HARNESS_* variable core/config.ts reads', async () => {
    const config = readFileSync(`${root}core/config.ts`, 'utf8');
    const read = new Set(
      [...config.matchAll(/v\('(HARNESS_[A-Z_]+)'\)/g)]
        .map((m) => m[1]!)
        // The singular key variables are older spellings of the *_KEYS ones; the Enterprise
        // limits are harness load's (its --help lists them).
        .filter((v) => !/_KEY$/.test(v) || !config.includes(`v('${v}S')`))
        .filter((v) => !['HARNESS_ENTERPRISE_RATE', 'HARNESS_ENTERPRISE_BURST'].includes(v)),
    );
    assert.ok(read.size > 20, `only ${read.size} variables found`);
    const help = harness('run', '--help').out;
    for (const v of read) assert.match(help, new RegExp(`\\n  ${v}\\b`), `${v} in run --help`);
  });

  test('README.md’s table names exactly the variables of the one table, core/variables.ts', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const table = readme.slice(readme.indexOf('| variable | meaning |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const named = rows.flatMap((r) =>
      [...r.split(' | ')[0]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!),
    );
    assert.deepEqual([...named].sort(), Object.keys(ENV_VARS).sort());
    // The other copies of it link to it instead.
    assert.match(readFileSync(`${root}docs/usage.md`, 'utf8'), /README\.md#variables/);
  });

  test('an unknown option is refused with the usage: exit 2', () => {
    for (const args of [['serve'], ['detect'], ['run'], ['fuzz', 'receiver'], ['diff-spec']]) {
      const r = harness(...args, '--bogus');
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.out, '');
      assert.match(r.err, new RegExp(`^harness ${args[0]}: unknown option '--bogus'\\n`));
      assert.match(r.err, new RegExp(`\\nusage: harness ${args.join(' ')}\\b`));
      assert.match(r.err, /\noptions:\n/);
    }
  });

  test('detect --fault with a limits fault: refused, naming the load self-tests, exit 2', () => {
    // The matrix runs the contract suite only: asked for a limits fault it ran nothing and
    // reported "0 of 0 faults caught", exit 0.
    const r = harness('detect', '--fault', 'global-bucket', '--out', '/tmp/harness-detect-none');
    assert.equal(r.code, 2, r.err);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /^harness detect: 'global-bucket' \(load\.other-workspace\): a limits fault/,
    );
    assert.match(r.err, /test\/load\/reference-deployment\.test\.ts/);
  });

  test('a missing value, a stray argument and an unknown command: usage, exit 2', () => {
    const missing = harness('load', '--plan');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /option '--plan' needs a value/);
    assert.match(missing.err, /usage: harness load/);
    const stray = harness('compare', 'a', 'b', 'c');
    assert.equal(stray.code, 2);
    assert.match(stray.err, /unexpected argument: c/);
    const unknown = harness('nope');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command 'nope'/);
    assert.match(unknown.err, /exit status \(every command\)/);
  });

  test('harness --help and harness help CMD exit 0; harness alone prints the usage, exit 2', () => {
    const top = harness('--help');
    assert.equal(top.code, 0);
    for (const name of Object.keys(COMMANDS)) assert.match(top.out, new RegExp(`\\n  ${name} `));
    assert.match(harness('help', 'compare').out, /^usage: harness compare BASELINE CURRENT/);
    const bare = harness();
    assert.equal(bare.code, 2);
    assert.match(bare.err, /^usage: harness <command>/);
  });
});
