/**
 * The verdict printed at the end of `harness run` reads at a glance: the table's columns line up
 * whatever the area names (`compatibility`, `detection`), every line of the table and the details
 * under it fits in 100 columns, and the load area's long headline goes under the table, one plan
 * a line — not into a row.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { areaDetails, renderConsole, verdictTable, WIDTH } from '../../report/console.ts';
import type { AreaSummary } from '../../core/area.ts';
import { replayOf } from '../../report/replay.ts';
import type { Summary } from '../../report/summary.ts';

const area = (verdict: AreaSummary['verdict'], headline: string, n = 0): AreaSummary => ({
  verdict,
  headline,
  documentedFailures: [],
  assumptionMismatches: Array.from({ length: n }, () => ({
    check: 'load.reset-unit',
    provenance: 'assumed' as const,
    rule: 'X-RateLimit-Reset is epoch seconds (U23).',
    received: 'delta-s',
    expected: 'epoch-s',
  })),
  notRun: [],
});

// The load headline of a real run: one summaryLine per plan joined by " | " (357 characters).
const LOAD =
  'team       B̂ 201.3 ± 1.4 (plan 200) · r̂ 119.8/min ± 0.6 % (plan 120) · token-bucket · Reset epoch-s · scope per-key · pass [node, 96 s] | ' +
  'growth     B̂ 1001.2 ± 3.1 (plan 1000) · r̂ 600.4/min ± 0.5 % (plan 600) · token-bucket · Reset epoch-s · scope per-key · pass (inconclusive: retry-after) [node, 97 s]';

const areas: Record<string, AreaSummary> = {
  contracts: area(
    'pass',
    '74 tests, 1669 check evaluations: 0 documented failures, 0 assumption mismatches, 0 not run',
  ),
  load: area('warn', LOAD, 1),
  fuzz: area('not-run', 'skipped (--skip fuzz)'),
  compatibility: area(
    'pass',
    'against reports/baselines/reference.snapshot.json: ERR 0 · WARN 0 · INFO 0; reported, not gating',
  ),
  detection: area('fail', '61 of 62 faults caught by their named check'),
};

const summary: Summary = {
  schema: 'harness/summary',
  version: 1,
  runId: 'abcd1234',
  startedAt: new Date(0).toISOString(),
  durationMs: 114_000,
  target: { baseUrl: 'embedded', embedded: true, faults: [] },
  strict: false,
  verdict: 'pass',
  exitCode: 0,
  areas,
  checks: [],
  tests: { passed: 74, failed: 0, skipped: 0, total: 74 },
};

/** Start column of each whitespace-separated cell, and end column of each. */
function cells(line: string): { start: number; end: number; text: string }[] {
  return [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
  }));
}

describe('console verdict', () => {
  test('the table: one row per area, columns aligned with the header', () => {
    const table = verdictTable(areas);
    assert.equal(table.length, 1 + Object.keys(areas).length);
    const [header, ...rows] = table.map(cells);
    assert.deepEqual(
      header!.map((c) => c.text),
      ['area', 'verdict', 'documented', 'assumed', 'not run'],
    );
    for (const [i, row] of rows.entries()) {
      assert.equal(row.length, 5, `row ${i}: ${table[i + 1]}`);
      assert.equal(row[0]!.start, 0);
      // The verdict starts under "verdict"; the counts end under their headers.
      assert.equal(row[1]!.start, header![1]!.start, `verdict column of ${row[0]!.text}`);
      for (const c of [2, 3, 4])
        assert.equal(row[c]!.end, header![c]!.end, `column ${header![c]!.text} of ${row[0]!.text}`);
    }
    assert.equal(rows[3]![0]!.text, 'compatibility');
    for (const line of table) assert.ok(line.length <= WIDTH, line);
  });

  test('the details under the table: every line ≤ 100 columns, the load area one plan a line', () => {
    const details = areaDetails(areas);
    for (const line of details) assert.ok(line.length <= WIDTH, `${line.length}: ${line}`);
    const team = details.findIndex((l) => /^load +team +B̂/.test(l));
    const growth = details.findIndex((l) => /^ +growth +B̂/.test(l));
    assert.ok(team >= 0 && growth > team, details.join('\n'));
    // Nothing of the headlines is lost in the wrapping.
    const words = (s: string) => s.split(/[\s|]+/).filter((w) => w && w !== '·');
    assert.deepEqual(
      words(details.join(' ')).filter((w) => !(w in areas)),
      Object.values(areas).flatMap((a) => words(a.headline)),
    );
  });

  test('the whole verdict up to the failures fits in 100 columns', () => {
    const text = renderConsole(summary, '/tmp/reports/latest');
    const lines = text.split('\n');
    const upTo = lines.findIndex((l) => l.startsWith('--- '));
    for (const line of lines.slice(0, upTo)) assert.ok(line.length <= WIDTH, line);
    assert.match(text, /\nverdict: PASS \(exit 0\) in 114\.0 s\n/);
  });

  test('an embedded run says once, above its failures, what to start so the repros replay', () => {
    const failure = (n: number) => ({
      check: 'ticket.created-status-open',
      provenance: 'documented' as const,
      rule: 'A newly created ticket has status open in the response to creation.',
      received: `status "new" (${n})`,
      expected: 'status "open"',
      repro: `TICKET=$(curl -s -X POST "$HARNESS_BASE_URL"'/v1/tickets' | node -p '…')\ncurl -i -X GET "$HARNESS_BASE_URL"'/v1/tickets/'"$TICKET"`,
    });
    const failing: Summary = {
      ...summary,
      verdict: 'fail',
      exitCode: 1,
      target: { baseUrl: 'embedded', embedded: true, faults: ['create-status-new'] },
      replay: replayOf({ embedded: true, faults: ['create-status-new'] }),
      areas: { contracts: { ...areas.contracts!, documentedFailures: [failure(1), failure(2)] } },
    };
    const text = renderConsole(failing, '/tmp/reports/latest');
    assert.equal(text.split('these repros replay against').length, 2, text);
    assert.ok(text.includes(`  1. ${failing.replay!.start}`), text);
    assert.ok(text.includes(`  2. ${failing.replay!.load}`), text);
    assert.match(
      failing.replay!.start,
      /--api-plan growth --fault create-status-new --port 0 --env-out \S+$/,
    );
    // A multi-line repro stays under its label.
    assert.match(text, /\n {14}curl -i -X GET /);
    // A real target's repros run as pasted: nothing to say.
    assert.equal(replayOf({ embedded: false, faults: [] }), undefined);
    const real = renderConsole({ ...failing, replay: undefined }, '/tmp/reports/latest');
    assert.doesNotMatch(real, /these repros replay against/);
  });
});
