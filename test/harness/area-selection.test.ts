/**
 * `--grep` runs only what matches unless told otherwise (else `npm start -- --grep
 * @auth.invalid-key-401` would run the whole load and fuzz areas, 104 s): with --grep the load
 * and fuzz areas are listed as not run, saying how to include them (`--area`); `--area` runs
 * only the areas it names; `--skip` still leaves one out, with its own reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { areasNotRun, parseAreas } from '../../run/area-selection.ts';
import { runAll } from '../../run/run-all.ts';
import { renderConsole } from '../../report/console.ts';

describe('which areas a run runs', () => {
  test('no option: every area', () => {
    assert.deepEqual([...areasNotRun({})], []);
  });

  test('--grep: the contract suite alone, the others not run with the way to include them', () => {
    assert.deepEqual(Object.fromEntries(areasNotRun({ grep: '@auth.invalid-key-401' })), {
      load: 'not run: --grep selects contract tests only (--area contracts,load runs load too)',
      fuzz: 'not run: --grep selects contract tests only (--area contracts,fuzz runs fuzz too)',
    });
  });

  test('--area names what runs, with or without --grep; --skip still wins', () => {
    assert.deepEqual([...areasNotRun({ grep: 'x', areas: ['contracts', 'load', 'fuzz'] })], []);
    assert.deepEqual(Object.fromEntries(areasNotRun({ areas: ['fuzz'] })), {
      contracts: 'not run: --area fuzz does not select it',
      load: 'not run: --area fuzz does not select it',
    });
    assert.deepEqual(Object.fromEntries(areasNotRun({ skip: ['load'], areas: ['load', 'fuzz'] })), {
      contracts: 'not run: --area load,fuzz does not select it',
      load: 'skipped (--skip load)',
    });
    assert.deepEqual(Object.fromEntries(areasNotRun({ skip: ['load'], grep: 'x' })), {
      load: 'skipped (--skip load)',
      fuzz: 'not run: --grep selects contract tests only (--area contracts,fuzz runs fuzz too)',
    });
  });

  test('repeatable and comma-separated; an unknown area is refused, naming the known ones', () => {
    assert.deepEqual(parseAreas('--area', ['contracts,load', ' fuzz ']), [
      'contracts',
      'load',
      'fuzz',
    ]);
    assert.deepEqual(parseAreas('--area', undefined), []);
    assert.throws(
      () => parseAreas('--area', ['contracts,lod']),
      /^Error: --area takes contracts, load, fuzz; got lod$/,
    );
  });
});

describe('harness run --grep against the embedded deployment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-grep-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('runs the matching contract test only: no load, no fuzz, each said why', {
    timeout: 180_000,
  }, async () => {
    const out = join(dir, 'latest');
    const { summary, exitCode } = await runAll({
      outDir: out,
      grep: '@auth.invalid-key-401',
      verbose: false,
      log: () => {},
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HARNESS_BASELINE: 'off' },
    });
    assert.equal(exitCode, 0, JSON.stringify(summary.areas, null, 1));
    assert.ok(summary.tests.passed >= 1, 'the matching test ran');
    for (const a of ['load', 'fuzz'] as const) {
      const area = summary.areas[a]!;
      assert.equal(area.verdict, 'not-run', a);
      assert.equal(
        area.headline,
        `not run: --grep selects contract tests only (--area contracts,${a} runs ${a} too)`,
      );
    }
    // Nothing was sent on their behalf.
    assert.deepEqual(Object.keys(summary.requests?.byArea ?? {}), ['contracts']);
    assert.match(renderConsole(summary, out), /--grep selects contract tests only/);
  });
});
