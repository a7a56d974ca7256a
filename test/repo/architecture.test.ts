/**
 * ARCHITECTURE.md stays true: every path it names exists, and its "where is X" table answers
 * for every unit of every registry — each check, fault, probe, load verdict, fuzz property and
 * diff/compare rule is found in the file or folder the table says, and each example name in the
 * table is a real unit of its kind.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { API_INPUT_RULES } from '../../fuzz/api-input/rules.ts';
import { RECEIVER_PROPERTIES } from '../../fuzz/receiver/properties.ts';
import { SIGNATURE_RULES } from '../../fuzz/signature/index.ts';
import { VERDICT_IDS } from '../../load/lib/verdicts.ts';
import { FAULTS } from '../../server/faults.ts';
import { READINGS } from '../../server/readings/index.ts';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import { ENV_VARS } from '../../core/variables.ts';
import { RULES as COMPARE_RULES } from '../../compat/compare/rules.ts';
import { RULES as DIFF_RULES, RULE_FAMILIES } from '../../compat/diff/rules.ts';
import { LIMITER_FAULTS } from '../load/limiter-faults.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

const TOP = new Set(readdirSync(ROOT));

/**
 * Backticked tokens that name a repository path: they start with a top-level folder of the
 * repository (a bare file name inside a folder's row, or an output under reports/, is not one).
 */
function pathsIn(text: string): string[] {
  const out = new Set<string>();
  for (const [, tok] of text.matchAll(/`([^`\s]+)`/g)) {
    if (!tok || /[<>*{}()]/.test(tok) || !tok.includes('/')) continue;
    const top = tok.split('/')[0]!;
    if (TOP.has(top) && top !== 'reports' && top !== 'node_modules') out.add(tok);
  }
  return [...out];
}

/** All text of a file, or of every file under a folder. */
function textOf(path: string): string {
  const abs = join(ROOT, path);
  if (!statSync(abs).isDirectory()) return readFileSync(abs, 'utf8');
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => /\.ts$/.test(f))
    .map((f) => readFileSync(join(abs, f), 'utf8'))
    .join('\n');
}

const table = DOC.slice(
  DOC.indexOf('<!-- where-is:start -->'),
  DOC.indexOf('<!-- where-is:end -->'),
);
const rows = new Map(
  table
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| kind') && !l.startsWith('|---'))
    .map((l) => {
      const [kind, where, list, named] = l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, ''));
      return [kind!, { where: where!, list: list!, named: named! }] as const;
    }),
);

/** The first backticked path of a cell. */
const firstPath = (cell: string) => pathsIn(cell)[0] ?? assert.fail(`no path in '${cell}'`);
const examples = (cell: string) =>
  [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/^@/, ''));

describe('ARCHITECTURE.md', () => {
  test('every path it names exists', () => {
    const paths = pathsIn(DOC);
    assert.ok(paths.length > 30, `only ${paths.length} paths found`);
    const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
    assert.deepEqual(missing, [], 'paths in ARCHITECTURE.md that do not exist');
  });

  const kinds: Record<
    string,
    {
      units: readonly string[];
      quoted?: boolean;
      examplesFrom?: readonly string[];
      /** Suffixes a generated family adds to a quoted stem. */
      stem?: RegExp;
    }
  > = {
    check: { units: ALL_CHECKS.map((c) => c.name), quoted: true },
    fault: { units: FAULTS.map((f) => f.name), quoted: true },
    reading: { units: READINGS.map((r) => r.name), quoted: true },
    'load verdict': { units: VERDICT_IDS, quoted: true },
    'signature property': { units: SIGNATURE_RULES.map((r) => r.name), quoted: true },
    'receiver property': { units: RECEIVER_PROPERTIES.map((p) => p.name), quoted: true },
    'API-input rule': { units: Object.values(API_INPUT_RULES).map((r) => r.check), quoted: true },
    // Rule ids are prefix + family (response-status-removed): each family is named in the file.
    // (some families are generated from a stem: `${g}-tightened` for g in 'length', 'range', …).
    'diff rule': {
      units: RULE_FAMILIES.map((f) => f.id),
      quoted: true,
      stem: /-(tightened|loosened|added|removed)$/,
      examplesFrom: [...DIFF_RULES.keys()],
    },
    'compare rule': { units: Object.keys(COMPARE_RULES) },
    'limiter fault case': { units: Object.keys(LIMITER_FAULTS) },
    variable: { units: Object.keys(ENV_VARS) },
  };

  for (const [kind, { units, quoted, examplesFrom, stem }] of Object.entries(kinds)) {
    test(`where is a ${kind}: every one is found where the table says`, () => {
      const row = rows.get(kind) ?? assert.fail(`no '${kind}' row in the where-is table`);
      assert.ok(units.length > 0, `the ${kind} registry is empty`);
      const text = textOf(firstPath(row.where));
      const lost = units.filter((u) =>
        quoted
          ? !text.includes(`'${u}'`) && !(stem && text.includes(`'${u.replace(stem, '')}'`))
          : !text.includes(u) && !textOf(firstPath(row.list)).includes(u),
      );
      assert.deepEqual(lost, [], `${kind}s not found in ${firstPath(row.where)}`);
      const named = examples(row.named).filter((e) => !e.includes('/') && !e.includes(' '));
      for (const e of named)
        assert.ok((examplesFrom ?? units).includes(e), `'${e}' is not a ${kind}`);
    });
  }

  test('where is a probe: every U-number probed in contracts/ is in the gap table it names', () => {
    const row = rows.get('probe') ?? assert.fail('no probe row');
    const gaps = textOf(firstPath(row.list));
    const probed = [...textOf('contracts').matchAll(/probe\(\s*'(U\d+)'/g)].map((m) => m[1]!);
    assert.ok(probed.length > 10, `only ${probed.length} probes found`);
    const unknown = [...new Set(probed)].filter(
      (u) => !new RegExp(`^\\| ${u} \\|`, 'm').test(gaps),
    );
    assert.deepEqual(unknown, [], 'probes of gaps the table does not list');
  });

  test('where is a fault: each deviation is switched on by name under server/', () => {
    const server = textOf('server').replace(textOf('server/faults.ts'), '');
    const unused = FAULTS.map((f) => f.name).filter((n) => !server.includes(`'${n}'`));
    assert.deepEqual(unused, [], 'faults no server code switches on');
  });
});
