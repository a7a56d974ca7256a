/**
 * Table-driven: every folder of test/fixtures/diff holds old.yaml, new.yaml and expected.json;
 * diff-spec must report exactly the expected findings (rule, level, both pointers, and the
 * `x-gap` of an assumption it touches) — no more, no fewer.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diffSpecs, type Finding, loadSpec } from '../../compat/diff/index.ts';

const root = new URL('../fixtures/diff/', import.meta.url).pathname;

interface Expected {
  rule: string;
  level: string;
  old?: string;
  new?: string;
  assumed?: string | true;
}

function comparable(f: Finding): Expected {
  return {
    rule: f.rule,
    level: f.level,
    ...(f.old !== undefined ? { old: f.old } : {}),
    ...(f.new !== undefined ? { new: f.new } : {}),
    ...(f.assumed ? { assumed: f.assumed.gap ?? true } : {}),
  };
}

const order = (a: Expected, b: Expected) =>
  JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;

const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('diff-spec fixture corpus', () => {
  test('the corpus is there', () => {
    assert.ok(cases.length >= 100, `only ${cases.length} fixtures found under ${root}`);
    assert.ok(cases.filter((c) => c.startsWith('negative--')).length >= 4);
  });

  for (const name of cases) {
    test(name, () => {
      const dir = join(root, name);
      const expected = (
        JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { findings: Expected[] }
      ).findings;
      const actual = diffSpecs(loadSpec(join(dir, 'old.yaml')), loadSpec(join(dir, 'new.yaml')));
      assert.deepEqual(actual.map(comparable).sort(order), [...expected].sort(order));
      // Reversing a change must be reported too (a no-op stays a no-op both ways).
      const back = diffSpecs(loadSpec(join(dir, 'new.yaml')), loadSpec(join(dir, 'old.yaml')));
      assert.equal(back.length === 0, expected.length === 0, 'reverse diff disagrees on no-op');
    });
  }

  test('the folder name of a single-finding fixture is its rule id', () => {
    for (const name of cases) {
      if (name.includes('--')) continue;
      const { findings } = JSON.parse(readFileSync(join(root, name, 'expected.json'), 'utf8'));
      assert.equal(findings.length, 1, name);
      assert.equal(findings[0].rule, name);
    }
  });
});
