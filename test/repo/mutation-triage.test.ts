/**
 * The mutation run's committed files agree with each other (the run itself is never part of
 * `npm test`: it takes hours): every mutant that survived the gate in Stryker's results
 * (docs/mutation/stryker-incremental.json) has exactly one triage in docs/mutation/triage.json,
 * and the triage names only survivors; docs/mutation-triage.md and the README's score are what
 * `npm run mutation -- --render` makes of them. A rerun that adds or moves a survivor, or a hand
 * edit of the rendered files, fails here and says which.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { renderReadme, renderTriage } from '../../scripts/mutation/render.ts';
import {
  readReport,
  readTriage,
  ROOT,
  survivors,
  TRIAGE_MD,
} from '../../scripts/mutation/results.ts';
import { scopeFiles } from '../../scripts/mutation/scope.ts';

const report = readReport();
const triage = readTriage();

describe('mutation triage', () => {
  test('every survivor is triaged, and only survivors', () => {
    const keys = new Set(survivors(report).map((s) => s.key));
    const untriaged = [...keys].filter((k) => !triage.survivors[k]);
    const stale = Object.keys(triage.survivors).filter((k) => !keys.has(k));
    assert.deepEqual(untriaged, [], 'survivors without a triage (docs/mutation/triage.json)');
    assert.deepEqual(stale, [], 'triage entries that are not survivors (moved or now killed)');
  });

  test('each triage says what it must', () => {
    for (const [key, t] of Object.entries(triage.survivors)) {
      assert.ok(['gap', 'assumed', 'equivalent'].includes(t.verdict), `${key}: verdict`);
      assert.ok(t.why.trim().length > 10, `${key}: why`);
      if (t.verdict === 'gap') assert.ok(t.check?.trim(), `${key}: a gap names the check`);
      if (t.verdict === 'assumed')
        assert.equal(typeof t.mismatch, 'boolean', `${key}: reported as a mismatch or not`);
    }
  });

  test('the results are of files in the scope', () => {
    const scope = new Set(scopeFiles());
    assert.deepEqual(
      Object.keys(report.files).filter((f) => !scope.has(f)),
      [],
      'files mutated that scripts/mutation/stryker.config.mjs no longer names',
    );
  });

  test('docs/mutation-triage.md and the README section are rendered from them', () => {
    const md = readFileSync(join(ROOT, TRIAGE_MD), 'utf8');
    assert.equal(
      md,
      renderTriage(report, triage, scopeFiles()),
      'run: npm run mutation -- --render',
    );
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, renderReadme(report, triage, readme), 'run: npm run mutation -- --render');
  });
});
