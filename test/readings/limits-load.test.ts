/**
 * The readings only the load area reports (the rate limits', server/readings/limits.ts) never fail
 * the gate either: for each, the whole gate — contracts, the load area on the Team keys, the fuzz —
 * runs against `harness serve --reading …` whose clock runs ten times real time, `harness run
 * --time-scale 10` against it, each its own process (gate-on-readings.ts), and ends PASS (exit 0):
 * no documented failure — B̂, r̂ and the under-rate phase, read through a token bucket, lean on U24
 * where the run showed another limiter — and the reading reported by its `shows` (a load verdict's
 * assumption mismatch). The two window limiters once more under k6 (the load area alone), whose
 * judgement reads aggregates where the Node engine has every answer.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { READINGS } from '../../server/readings/index.ts';
import { stopAll } from '../harness/gate-processes.ts';
import { K6 } from '../load/k6-binary.ts';
import { gateWithLoad, problems, type ReadingRun, shown, shownByLoad } from './gate-on-readings.ts';

after(stopAll);

const LOAD_READINGS = READINGS.filter(shownByLoad);

/** The load area's one line per plan, and the assumption mismatches of the run. */
function diagnostic(r: ReadingRun): string {
  const lines = r.load.map((l) =>
    l.verdicts
      .filter((v) => v.status === 'fail')
      .map((v) => (v.leansOn ? `${v.id} (on ${v.leansOn.gap})` : v.id))
      .join(', '),
  );
  return `exit ${r.code} at ${r.timeScale}×; load failed: ${lines.join(' | ') || 'none'}; mismatches: ${[...new Set(r.mismatches.map((m) => m.check))].join(', ') || 'none'}`;
}

function assertPasses(r: ReadingRun, reading: (typeof LOAD_READINGS)[number]): void {
  assert.deepEqual(problems(r), []);
  assert.ok(r.load.length > 0, 'the load area ran');
  assert.notDeepEqual(
    shown(r, reading.shows),
    [],
    `${reading.name} not reported by any of ${reading.shows.join(', ')}; mismatches: ${r.mismatches.map((m) => `[${m.check}] ${m.received}`).join('\n')}`,
  );
}

describe('each rate-limit reading passes the whole gate, load included, reported as the mismatch it is', {
  concurrency: 2,
  timeout: 20 * 60_000,
}, () => {
  test('the rate-limit readings are the load-shown ones', () => {
    assert.deepEqual(
      LOAD_READINGS.map((r) => r.gap),
      ['U22', 'U23', 'U23', 'U24', 'U24', 'U25'],
    );
  });

  for (const reading of LOAD_READINGS) {
    test(reading.name, { timeout: 300_000 }, async (t) => {
      const r = await gateWithLoad([reading.name], {}, (l) => t.diagnostic(l));
      t.diagnostic(diagnostic(r));
      assertPasses(r, reading);
    });
  }

  for (const reading of LOAD_READINGS.filter((r) => r.gap === 'U24')) {
    test(`${reading.name} under k6 (the load area alone)`, {
      skip: K6 ? false : 'no k6',
      timeout: 300_000,
    }, async (t) => {
      const r = await gateWithLoad([reading.name], { k6: K6!.path, areas: ['load'] }, (l) =>
        t.diagnostic(l),
      );
      t.diagnostic(diagnostic(r));
      assert.deepEqual(
        r.load.map((l) => l.engine),
        ['k6'],
      );
      assertPasses(r, reading);
    });
  }
});
