/**
 * The Gaps table fills U22–U25 (429 and Retry-After, the Reset unit, the limiter algorithm, the
 * key scope) from the load area when it ran: from a recorded real load result (Team, Node
 * engine), not "not observed in this run" next to a load table that shows them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { LoadResult } from '../../load/lib/result.ts';
import { renderHtml } from '../../report/html.ts';
import { loadGaps } from '../../report/load-gaps.ts';
import { buildSnapshot } from '../../report/snapshot.ts';
import type { Summary } from '../../report/summary.ts';
import { loadArea } from '../../load/load-step.ts';

const recorded = JSON.parse(
  readFileSync(new URL('./fixtures/load-team.json', import.meta.url), 'utf8'),
) as LoadResult;

function summaryWith(load: LoadResult[] | undefined): Summary {
  return {
    schema: 'harness/summary',
    version: 1,
    runId: 'r',
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    target: { baseUrl: 'embedded', embedded: true, faults: [] },
    strict: false,
    verdict: 'pass',
    exitCode: 0,
    areas: load ? { load: loadArea(load) } : {},
    checks: [],
    tests: { passed: 0, failed: 0, skipped: 0, total: 0 },
  };
}

/** The observed cell of a gap's row of the Gaps table. */
function gapCell(html: string, gap: string): string {
  const row = new RegExp(`<tr><td>${gap}</td><td>[^<]*</td><td>(.*?)</td></tr>`).exec(html);
  assert.ok(row, `no row for ${gap}`);
  return row[1]!;
}

describe('Gaps table from the load area', () => {
  test('every rate-limit gap gets the verdicts that judged it, per plan', () => {
    const gaps = loadGaps([recorded]);
    assert.deepEqual(Object.keys(gaps).sort(), ['U22', 'U23', 'U24', 'U25']);
    assert.equal(
      gaps.U23!['team: X-RateLimit-Reset is in epoch seconds'],
      'epoch-s (100 % of responses)',
    );
    assert.ok(Object.values(gaps.U24!).some((v) => v.startsWith('token-bucket')));
    assert.ok(Object.values(gaps.U25!).includes('per-key'));
    assert.ok(Object.keys(gaps.U22!).every((k) => k.startsWith('team: ')));
    assert.ok(Object.values(gaps.U22!).some((v) => /retry accepted/.test(v)));
  });

  test('the HTML fills U22–U25 when the load area ran, and says "not observed" when it did not', () => {
    const snapshot = buildSnapshot('embedded', [], []);
    const ran = renderHtml(summaryWith([recorded]), snapshot);
    for (const gap of ['U22', 'U23', 'U24', 'U25']) {
      const cell = gapCell(ran, gap);
      assert.doesNotMatch(cell, /not observed in this run/, gap);
      assert.match(cell, /team: /, gap);
    }
    assert.match(gapCell(ran, 'U24'), /token-bucket/);
    assert.match(gapCell(ran, 'U25'), /per-key/);
    const skipped = renderHtml(summaryWith(undefined), snapshot);
    for (const gap of ['U22', 'U23', 'U24', 'U25'])
      assert.match(gapCell(skipped, gap), /not observed in this run/, gap);
  });

  test('a probe shows under its label, not its id', () => {
    const snapshot = buildSnapshot(
      'embedded',
      [],
      [
        {
          gap: 'U14',
          id: 'retry-spacing-ms',
          label: 'ms between attempts',
          value: [104],
          test: 't',
        },
        { gap: 'U14', id: 'retry-answers', value: [503, 204], test: 't' },
      ],
    );
    const cell = gapCell(renderHtml(summaryWith(undefined), snapshot), 'U14');
    assert.match(cell, /ms between attempts: <code>\[104\]<\/code>/);
    assert.match(cell, /retry-answers: <code>\[503,204\]<\/code>/);
  });
});
