/**
 * The readings only the load area reports (the rate limits', server/readings/limits.ts) never fail
 * the gate either: for each, the whole gate — contracts, the load area on the Team keys, the fuzz —
 * runs against `harness serve --reading …` whose clock runs ten times real time, `harness run
 * --time-scale 10` against it, each its own process (test/readings/gate-on-readings.ts), and ends
 * PASS (exit 0): no documented failure — B̂, r̂ and the under-rate phase, read through a token
 * bucket, lean on U24 where the run showed another limiter — and the reading reported by its
 * `shows` (a load verdict's assumption mismatch). Then every reading at once (`--reading other`,
 * the window limiter and the per-workspace bucket together), and the two window limiters once
 * more under k6 (the load area alone), whose judgement reads aggregates where the Node engine has
 * every answer. Two gates at a time, apart from other files' load measurements
 * (one-load-at-a-time.ts); a documented failure of the load area on a busy machine is measured
 * once more at half the clock (gateWithLoad).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { otherReadings, READINGS, type Reading } from '../../server/readings/index.ts';
import { stopAll } from '../harness/gate-processes.ts';
import {
  type GateOptions,
  gateWithLoad,
  problems,
  type ReadingRun,
  shown,
  shownByLoad,
} from '../readings/gate-on-readings.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { oneLoadAtATime } from './one-load-at-a-time.ts';

after(stopAll);

const LOAD_READINGS = READINGS.filter(shownByLoad);

/** The load area's failed verdicts (those that leaned, with their gap) and the run's mismatches. */
function diagnostic(r: ReadingRun): string {
  const failed = r.load.map((l) =>
    l.verdicts
      .filter((v) => v.status === 'fail')
      .map((v) => (v.leansOn ? `${v.id} (on ${v.leansOn.gap})` : v.id))
      .join(', '),
  );
  const mismatches = [...new Set(r.mismatches.map((m) => m.check))];
  return `exit ${r.code} at ${r.timeScale}×; load failed: ${failed.join(' | ') || 'none'}; mismatches: ${mismatches.join(', ') || 'none'}`;
}

/** The gate with load against `readings`, reported on the test's diagnostics. */
async function gate(
  t: { diagnostic(m: string): void },
  readings: string[],
  o: Omit<GateOptions, 'load' | 'timeScale'> = {},
): Promise<ReadingRun> {
  const r = await oneLoadAtATime(() => gateWithLoad(readings, o, (l) => t.diagnostic(l)));
  t.diagnostic(diagnostic(r));
  assert.deepEqual(problems(r), []);
  assert.ok(r.load.length > 0, 'the load area ran');
  return r;
}

function assertShown(r: ReadingRun, reading: Reading): void {
  assert.notDeepEqual(
    shown(r, reading.shows),
    [],
    `${reading.name} not reported by any of ${reading.shows.join(', ')}; mismatches: ${r.mismatches.map((m) => `[${m.check}] ${m.received}`).join('\n')}`,
  );
}

describe('every rate-limit reading passes the whole gate, load included, reported as the mismatch it is', {
  concurrency: 2,
  timeout: 20 * 60_000,
}, () => {
  test('the readings only the load area reports are the rate limits’', () => {
    assert.deepEqual(
      LOAD_READINGS.map((r) => r.gap),
      ['U22', 'U23', 'U23', 'U24', 'U24', 'U25'],
    );
  });

  for (const reading of LOAD_READINGS) {
    test(reading.name, { timeout: 300_000 }, async (t) => {
      assertShown(await gate(t, [reading.name]), reading);
    });
  }

  const other = otherReadings();
  test(`all at once (--reading other: ${other.length} readings)`, {
    timeout: 300_000,
  }, async (t) => {
    const r = await gate(t, ['other']);
    // The rest report without the load area too (test/readings/readings.test.ts).
    for (const reading of other.filter(shownByLoad)) assertShown(r, reading);
  });

  for (const reading of LOAD_READINGS.filter((r) => r.gap === 'U24')) {
    test(`${reading.name} under k6 (the load area alone)`, {
      skip: K6 ? false : NO_K6,
      timeout: 300_000,
    }, async (t) => {
      const r = await gate(t, [reading.name], { k6: K6!.path, areas: ['load'] });
      assert.deepEqual(
        r.load.map((l) => l.engine),
        ['k6'],
      );
      assertShown(r, reading);
    });
  }
});
