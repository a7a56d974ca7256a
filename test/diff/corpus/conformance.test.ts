/**
 * oasdiff's checker corpus, every pair in both directions: `diff-spec` must call a direction
 * breaking (any ERR) exactly when the reviewed expectations file says a client breaks.
 * The file is produced by `npm run diff:corpus` (which runs oasdiff) and then judged by hand;
 * each direction where our verdict differs from oasdiff's carries a one-line reason.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diffSpecs, loadSpec } from '../../../compat/diff/index.ts';
import { checkerDir, corpusPresent, directions, OUTSIDE } from './pairs.ts';

interface Expectation {
  breaking: boolean;
  oasdiff: boolean;
  oasdiffErr: string[];
  reason?: string;
  pending?: true;
}

const expectations = (
  JSON.parse(readFileSync(new URL('./expectations.json', import.meta.url), 'utf8')) as {
    directions: Record<string, Expectation>;
  }
).directions;

const present = corpusPresent();
if (!present)
  console.log(
    `# SKIP corpus conformance: oasdiff corpus not found at ${checkerDir()} ` +
      '(set HARNESS_OASDIFF_CORPUS or check out ../shared/corpora/oasdiff)',
  );

describe('diff-spec against oasdiff’s checker corpus', {
  skip: !present && 'corpus absent',
}, () => {
  const all = present ? directions() : [];

  test('every direction of the corpus has a reviewed expectation, and only those', () => {
    assert.ok(all.length >= 260, `only ${all.length} directions found`);
    assert.deepEqual(Object.keys(expectations).sort(), all.map((d) => d.id).sort());
    const pending = Object.entries(expectations).filter(([, e]) => e.pending);
    assert.deepEqual(
      pending.map(([id]) => id),
      [],
      'directions not yet reviewed',
    );
    for (const [id, e] of Object.entries(expectations))
      if (e.breaking !== e.oasdiff)
        assert.ok(e.reason && e.reason.length > 10, `${id}: differs from oasdiff without a reason`);
  });

  test('the circular pairs, every direction: a schema that becomes (or was) a `$ref` cycle with no schema at its end changed type', () => {
    const circular = all.filter((d) =>
      OUTSIDE.some(([a, b]) => [a, b].includes(d.old) && [a, b].includes(d.new)),
    );
    assert.equal(circular.length, 2 * OUTSIDE.length, 'each circular pair in both directions');
    for (const d of circular) {
      const rules = diffSpecs(
        loadSpec(join(checkerDir(), d.old)),
        loadSpec(join(checkerDir(), d.new)),
      ).map((f) => `${f.level} ${f.rule}`);
      // circular1 and circular2 both answer the object (2's is recursive): no type change there.
      const cycle = d.old.includes('circular3') || d.new.includes('circular3');
      assert.equal(
        rules.includes('ERR response-type-changed'),
        cycle,
        `${d.id}: ${rules.join(', ')}`,
      );
    }
  });

  for (const d of all) {
    test(d.id, () => {
      const e = expectations[d.id];
      assert.ok(e, 'no expectation (run npm run diff:corpus and review)');
      const findings = diffSpecs(
        loadSpec(join(checkerDir(), d.old)),
        loadSpec(join(checkerDir(), d.new)),
      );
      const errs = findings.filter((f) => f.level === 'ERR');
      assert.equal(
        errs.length > 0,
        e.breaking,
        `Received: ${errs.length ? errs.map((f) => `${f.rule} (${f.message})`).join('; ') : 'no ERR'}\n` +
          `Documented: ${e.breaking ? 'breaking' : 'not breaking'}${e.reason ? ` — ${e.reason}` : ''}`,
      );
    });
  }
});
