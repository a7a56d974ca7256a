/**
 * The rule registry is the truth about levels: every finding the engine raises on the fixtures
 * and on oasdiff's corpus carries a registered rule id at its registered level, docs/usage.md
 * shows exactly the registry's tables, and `--level` overrides move rules.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { withTable } from '../../scripts/diff-rules-doc.ts';
import { diffSpecs, loadSpec, parseLevelOverrides, RULES } from '../../compat/diff/index.ts';
import { checkerDir, corpusPresent, directions } from './corpus/pairs.ts';

const fixtures = new URL('../fixtures/diff/', import.meta.url).pathname;

function pairs(): [string, string][] {
  const out: [string, string][] = [];
  for (const d of readdirSync(fixtures)) {
    const a = join(fixtures, d, 'old.yaml');
    const b = join(fixtures, d, 'new.yaml');
    out.push([a, b], [b, a]);
  }
  if (corpusPresent())
    for (const d of directions()) out.push([join(checkerDir(), d.old), join(checkerDir(), d.new)]);
  return out;
}

describe('diff-spec rule registry', () => {
  test('every finding raised on fixtures and corpus is registered at its level', () => {
    const wrong = new Set<string>();
    let seen = 0;
    for (const [a, b] of pairs()) {
      for (const f of diffSpecs(loadSpec(a), loadSpec(b))) {
        seen++;
        const level = RULES.get(f.rule);
        if (level !== f.level)
          wrong.add(`${f.rule}: raised ${f.level}, registered ${level ?? 'nowhere'}`);
      }
    }
    // The fixtures alone raise ~330 findings; with oasdiff's corpus, several hundred more.
    assert.ok(seen > (corpusPresent() ? 600 : 300), `only ${seen} findings seen`);
    assert.deepEqual([...wrong].sort(), []);
  });

  test('docs/usage.md carries the tables generated from the registry', () => {
    const doc = readFileSync(new URL('../../docs/usage.md', import.meta.url), 'utf8');
    assert.equal(doc, withTable(doc), 'run `npm run diff:rules-doc`');
  });

  test('--level moves a rule, by id or by family', () => {
    const a = join(fixtures, 'response-enum-value-added', 'old.yaml');
    const b = join(fixtures, 'response-enum-value-added', 'new.yaml');
    assert.equal(diffSpecs(loadSpec(a), loadSpec(b))[0]!.level, 'ERR');
    for (const spec of ['response-enum-value-added=WARN', 'enum-value-added=warn']) {
      const levels = parseLevelOverrides([spec]);
      assert.equal(diffSpecs(loadSpec(a), loadSpec(b), { levels })[0]!.level, 'WARN');
    }
    assert.deepEqual(parseLevelOverrides(['path-removed=WARN,security-added=INFO']), {
      'path-removed': 'WARN',
      'security-added': 'INFO',
    });
    assert.throws(() => parseLevelOverrides(['no-such-rule=WARN']), /unknown rule 'no-such-rule'/);
    assert.throws(() => parseLevelOverrides(['path-removed=FATAL']), /ERR, WARN or INFO/);
    assert.throws(() => parseLevelOverrides(['path-removed']), /RULE=ERR\|WARN\|INFO/);
  });
});
