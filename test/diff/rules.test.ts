/**
 * The rule registry is the one place levels are chosen: no emitter of the engine names a level
 * (each passes a rule id, and `emit` takes the level from the registry or a `--level` override),
 * docs/usage.md shows exactly the registry's tables, and `--level` overrides move rules.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { withTable } from '../../scripts/diff-rules-doc.ts';
import { diffSpecs, loadSpec, parseLevelOverrides, RULES } from '../../compat/diff/index.ts';
import { RULE_FAMILIES, VS_OASDIFF } from '../../compat/diff/rules.ts';
import { type Ctx, emit, Sink } from '../../compat/diff/walk-context.ts';

const fixtures = new URL('../fixtures/diff/', import.meta.url).pathname;
const engine = new URL('../../compat/diff/', import.meta.url).pathname;

const scratch = (levels?: Ctx['levels']): Ctx => ({
  oldDoc: {},
  newDoc: {},
  sink: new Sink(),
  where: 'GET /t',
  visited: new Set(),
  ...(levels ? { levels } : {}),
});

describe('diff-spec rule registry', () => {
  test('every departure from oasdiff is about a rule of the registry', () => {
    const ids = new Set(RULE_FAMILIES.map((f) => f.id));
    assert.deepEqual(
      Object.keys(VS_OASDIFF).filter((id) => !ids.has(id)),
      [],
    );
  });

  test('no file of the engine but the registry names a level', () => {
    const files = readdirSync(engine, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && f !== 'rules.ts');
    assert.ok(files.length > 20, `only ${files.length} engine files found`);
    const naming = files.filter((f) =>
      /'(ERR|WARN|INFO)'/.test(readFileSync(join(engine, f), 'utf8')),
    );
    assert.deepEqual(naming, []);
  });

  test('emit takes the level of the rule from the registry, or from an override', () => {
    const ctx = scratch();
    emit(ctx, 'response-property-removed', 'gone', '/a', '/b');
    emit(ctx, 'request-property-removed', 'gone', '/a', '/b');
    emit(ctx, 'x-scope-changed', 'changed', '/a', '/b');
    assert.deepEqual(
      [...ctx.sink.byKey.values()].map((f) => `${f.rule} ${f.level}`),
      ['response-property-removed ERR', 'request-property-removed WARN', 'x-scope-changed WARN'],
    );
    const moved = scratch({ 'response-property-removed': 'INFO' });
    emit(moved, 'response-property-removed', 'gone', '/a', '/b');
    assert.equal([...moved.sink.byKey.values()][0]!.level, 'INFO');
  });

  test('emit refuses a rule the registry does not hold, or holds for the other direction only', () => {
    assert.equal(RULES.has('request-optional-property-removed'), false);
    for (const rule of ['request-optional-property-removed', 'no-such-rule'])
      assert.throws(() => emit(scratch(), rule, 'm', '/a', '/b'), /a rule rules\.ts does not hold/);
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
