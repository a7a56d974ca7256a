/**
 * The mutation run's committed files agree with each other (the run itself is never part of
 * `npm test`: it takes hours): every mutant that survived the gate in Stryker's results
 * (docs/mutation/stryker-incremental.json) has exactly one triage in docs/mutation/triage.json,
 * and the triage names only survivors; every file of server/ is mutated or says why not;
 * docs/mutation-triage.md and the README's score are what `npm run mutation -- --render` makes of
 * them. A mutant's key is what it is, not where: formatting or moving code keeps it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mutantKeys, normalise } from '../../scripts/mutation/keys.ts';
import { renderReadme, renderTriage } from '../../scripts/mutation/render.ts';
import {
  keyed,
  type MutantResult,
  type Report,
  readGate,
  readReport,
  readTriage,
  ROOT,
  survivors,
  TRIAGE_MD,
  type TriageFile,
} from '../../scripts/mutation/results.ts';
import { scopeFiles, tsFiles, whyNotMutated } from '../../scripts/mutation/scope.ts';
import { documentedKill, scores } from '../../scripts/mutation/scores.ts';
import { reconcile } from '../../scripts/mutation/reconcile.ts';

const report = readReport();
const triage = readTriage();
const gate = readGate();

describe('mutation triage', () => {
  test('every survivor is triaged, and only survivors', () => {
    const keys = new Set(survivors(report).map((s) => s.key));
    const untriaged = [...keys].filter((k) => !triage.survivors[k]);
    const stale = Object.keys(triage.survivors).filter((k) => !keys.has(k));
    assert.deepEqual(untriaged, [], 'survivors without a triage (docs/mutation/triage.json)');
    assert.deepEqual(stale, [], 'triage entries that are not survivors (moved or now killed)');
  });

  test('each triage says what it must', () => {
    for (const [key, t] of Object.entries({ ...triage.survivors, ...triage.retriage })) {
      assert.ok(['gap', 'assumed', 'equivalent'].includes(t.verdict), `${key}: verdict`);
      assert.ok(t.why.trim().length > 10, `${key}: why`);
      if (t.verdict === 'gap') assert.ok(t.check?.trim(), `${key}: a gap names the check`);
      if (t.verdict === 'assumed')
        assert.equal(typeof t.mismatch, 'boolean', `${key}: reported as a mismatch or not`);
    }
  });

  test('a triage that says the gate reported it agrees with what the gate recorded', () => {
    for (const s of survivors(report)) {
      const t = triage.survivors[s.key];
      const found = gate.mutants[s.key];
      if (!t?.mismatch || !found) continue;
      const baseline = new Set(gate.files[s.file]?.baseline?.mismatches ?? []);
      assert.ok(
        found.mismatches.some((c) => !baseline.has(c)),
        `${s.key}: triaged as reported, but the gate recorded no mismatch of its own`,
      );
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

  test('every file of server/ is mutated or says why not, never both', () => {
    const scope = new Set(scopeFiles());
    const server = tsFiles('server');
    const neither = server.filter((f) => !scope.has(f) && !whyNotMutated(f));
    const both = server.filter((f) => scope.has(f) && whyNotMutated(f));
    assert.deepEqual(neither, [], 'add it to `mutate` or to `notMutated` with its reason');
    assert.deepEqual(both, [], 'in `mutate` and in `notMutated`');
    for (const f of scope) assert.ok(server.includes(f), `${f}: in the scope, no such file`);
  });

  test('docs/mutation-triage.md and the README section are rendered from them', () => {
    const md = readFileSync(join(ROOT, TRIAGE_MD), 'utf8');
    assert.equal(
      md,
      renderTriage(report, triage, scopeFiles(), gate),
      'run: npm run mutation -- --render',
    );
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.equal(
      readme,
      renderReadme(report, triage, readme, gate, scopeFiles()),
      'run: npm run mutation -- --render',
    );
  });
});

/** A mutant at the text `find` of `source` (its first occurrence after `after`). */
function at(source: string, find: string, mutatorName: string, replacement: string, after = 0) {
  const i = source.indexOf(find, after);
  assert.ok(i >= 0, find);
  const pos = (o: number) => {
    const before = source.slice(0, o).split('\n');
    return { line: before.length, column: before[before.length - 1]!.length + 1 };
  };
  return { mutatorName, replacement, location: { start: pos(i), end: pos(i + find.length) } };
}

describe('mutant keys', () => {
  const a = [
    'export function installGuard(app: App): void {',
    "  app.addHook('onRequest', async (req, reply) => {",
    '    if (!d.allowed) return tooMany(reply);',
    "    const bucket = faults.has('x') ? '' : scope === 'workspace' ? 'ws:' + w.id : 'key:' + k.id;",
    '    if (!d.allowed) return tooMany(reply);',
    '  });',
    '}',
  ].join('\n');
  const b = [
    '/** Moved down, reformatted, commented. */',
    '',
    'export function installGuard(app: App): void {',
    "  app.addHook('onRequest', async (req, reply) => {",
    '    // the anonymous bucket',
    '    if (!d.allowed) {',
    '      return tooMany(reply);',
    '    }',
    "    const bucket = faults.has('x')",
    "      ? ''",
    "      : scope === 'workspace'",
    "        ? 'ws:' + w.id",
    "        : 'key:' + k.id;",
    '    if (!d.allowed) return tooMany(reply);',
    '  });',
    '}',
  ].join('\n');
  const mutants = (s: string) => {
    const second = s.indexOf('!d.allowed') + 1;
    return [
      at(s, '!d.allowed', 'ConditionalExpression', 'true'),
      at(s, '!d.allowed', 'ConditionalExpression', 'true', second),
      at(s, "scope === 'workspace'", 'EqualityOperator', "scope !== 'workspace'"),
    ];
  };

  test('name the function, the mutator and the texts; the same text twice by its rank', () => {
    assert.deepEqual(mutantKeys('server/x.ts', a, mutants(a)), [
      "server/x.ts · installGuard › addHook('onRequest') · ConditionalExpression: !d.allowed → true #1",
      "server/x.ts · installGuard › addHook('onRequest') · ConditionalExpression: !d.allowed → true #2",
      "server/x.ts · installGuard › addHook('onRequest') · EqualityOperator: scope === 'workspace' → scope !== 'workspace'",
    ]);
  });

  test('survive formatting, moves and comments', () => {
    assert.deepEqual(
      mutantKeys('server/x.ts', b, mutants(b)),
      mutantKeys('server/x.ts', a, mutants(a)),
    );
  });

  test('a long text is cut, with a hash of the whole', () => {
    const long = `{ ${'x();'.repeat(40)} }`;
    const other = `{ ${'x();'.repeat(39)} y(); }`;
    const src = (body: string) => `function f() ${body}`;
    const key = (body: string) =>
      mutantKeys('f.ts', src(body), [at(src(body), body, 'BlockStatement', '{}')])[0]!;
    assert.ok(key(long).length < 140, key(long));
    assert.notEqual(key(long), key(other));
    assert.equal(normalise('f(a,\n  b,\n)'), 'f(a, b)');
  });

  test('every key of the results is one mutant', () => {
    const keys = keyed(report).map((k) => k.key);
    assert.equal(new Set(keys).size, keys.length);
  });
});

describe('scores and triage upkeep', () => {
  const src = 'export function f(a: boolean) {\n  return a ? 1 : 2;\n}\n';
  const mk = (mutants: MutantResult[]): Report => ({
    files: { 'server/f.ts': { source: src, mutants } },
  });

  test('raw, noticed and documented from one set of results', () => {
    const m = (
      id: string,
      status: MutantResult['status'],
      replacement: string,
      statusReason?: string,
    ): MutantResult => ({
      id,
      status,
      ...(statusReason ? { statusReason } : {}),
      ...at(src, 'a ? 1 : 2', 'ConditionalExpression', replacement),
    });
    const r = mk([
      m('1', 'Killed', 'x1', 'FAIL (exit 1, 9 s) · failed: tickets.create-201'),
      m(
        '2',
        'Killed',
        'x2',
        'FAIL (exit 1, 9 s) · failed: harness.test-completed | then FAIL (exit 1, 9 s) · failed: harness.test-completed',
      ),
      m(
        '3',
        'Killed',
        'x3',
        'ERROR (exit 2, 9 s) · error: contracts: the target stopped answering',
      ),
      m('4', 'Survived', 'x4'),
      m('5', 'Survived', 'x5'),
      m('6', 'Survived', 'x6'),
      m('7', 'CompileError', 'x7'),
    ]);
    const keys = keyed(r).map((k) => k.key);
    const t: TriageFile = {
      measured: 'x',
      survivors: {
        [keys[3]!]: { verdict: 'assumed', why: 'an assumed behaviour', mismatch: true },
        [keys[4]!]: { verdict: 'gap', why: 'a documented rule', check: 'c' },
      },
    };
    const g = {
      files: {
        'server/f.ts': {
          date: 'x',
          gate: 'g',
          source: 's',
          forced: true,
          baseline: { failed: [], mismatches: ['base'] },
        },
      },
      mutants: { [keys[5]!]: { failed: [], mismatches: ['base'] } },
    };
    assert.equal(documentedKill(r.files['server/f.ts']!.mutants[0]!), true);
    assert.equal(documentedKill(r.files['server/f.ts']!.mutants[1]!), false);
    const s = scores(r, t, g);
    assert.deepEqual(
      [s.raw, s.noticed, s.documented],
      // 3 killed of 6; + the one reported (the other's mismatch is the baseline's); 1 documented
      // kill against 1 gap and 1 untriaged survivor.
      [
        { num: 3, den: 6 },
        { num: 4, den: 6 },
        { num: 1, den: 3 },
      ],
    );
  });

  test('after a run: a killed survivor loses its triage, a changed one is to triage again', () => {
    const two = 'export function f(a: boolean, b: boolean) {\n  return a ? 1 : b ? 2 : 3;\n}\n';
    const changed = two.replace('b ? 2 : 3', 'b ? 2 : 4');
    const on = (source: string, find: string, id: string, status: MutantResult['status']) => ({
      id,
      status,
      ...at(source, find, 'ConditionalExpression', 'true'),
    });
    const before: Report = {
      files: {
        'server/f.ts': {
          source: two,
          mutants: [
            on(two, 'a ? 1 : b ? 2 : 3', '1', 'Survived'),
            on(two, 'b ? 2 : 3', '2', 'Survived'),
          ],
        },
      },
    };
    const [k1, k2] = keyed(before).map((k) => k.key);
    const t: TriageFile = {
      measured: 'x',
      survivors: {
        [k1!]: { verdict: 'assumed', why: 'an assumed behaviour', mismatch: false },
        [k2!]: { verdict: 'equivalent', why: 'nothing a client sees' },
      },
    };
    const after: Report = {
      files: {
        'server/f.ts': {
          source: changed,
          mutants: [
            on(changed, 'a ? 1 : b ? 2 : 4', '1', 'Killed'),
            on(changed, 'b ? 2 : 4', '2', 'Survived'),
          ],
        },
      },
    };
    const lines: string[] = [];
    const r = reconcile(t, after, 'server/f.ts', (l) => lines.push(l));
    // Both texts changed (the outer one holds the inner), so neither triage is carried over.
    assert.deepEqual(Object.keys(r.survivors), []);
    assert.deepEqual(Object.keys(r.retriage ?? {}).sort(), [k1, k2].sort());
    const same: Report = {
      files: {
        'server/f.ts': {
          source: two,
          mutants: [
            on(two, 'a ? 1 : b ? 2 : 3', '1', 'Killed'),
            on(two, 'b ? 2 : 3', '2', 'Survived'),
          ],
        },
      },
    };
    const r2 = reconcile(t, same, 'server/f.ts', () => {});
    assert.deepEqual(Object.keys(r2.survivors), [k2]);
    assert.deepEqual(r2.retriage ?? {}, {});
    const moved: Report = {
      files: {
        'server/f.ts': { source: 'export const x = 1;\n', mutants: [] },
        'server/g.ts': { source: two, mutants: [on(two, 'b ? 2 : 3', '2', 'Survived')] },
      },
    };
    const r3 = reconcile(
      reconcile(t, moved, 'server/f.ts', () => {}),
      moved,
      'server/g.ts',
      () => {},
    );
    assert.deepEqual(Object.keys(r3.survivors), [k2!.replace('server/f.ts', 'server/g.ts')]);
  });
});
