/**
 * Readings never fail the gate: for every reading of the catalogue (server/readings/), and for all
 * of them at once (`--reading other`), the whole gate but the load area — contracts, the fuzz,
 * webhook deliveries of every event — runs against `harness serve --reading …` with a Team key,
 * each part its own process (gate-on-readings.ts), and ends PASS (exit 0): no documented failure,
 * no area that could not run. What tells the reading from our assumption is reported: each
 * reading's `shows` — an assumed check's mismatch or a probe that recorded another value. A
 * reading only the load area reports (the rate limits') runs the whole gate with load in
 * test/load/readings-gate.test.ts instead, with the timing suites, and so do all at once.
 * The mirror of the detection matrix, where every fault must fail its named check.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { otherReadings, READINGS } from '../../server/readings/index.ts';
import { stopAll } from '../harness/gate-processes.ts';
import { gateOnReadings, problems, shown, shownByLoad } from './gate-on-readings.ts';

after(stopAll);

describe('every reading of the docs’ gaps passes the gate, reported as the mismatch it is', {
  concurrency: 2,
  timeout: 30 * 60_000,
}, () => {
  for (const reading of READINGS.filter((r) => !shownByLoad(r))) {
    test(reading.name, { timeout: 300_000 }, async (t) => {
      const r = await gateOnReadings([reading.name]);
      t.diagnostic(
        `exit ${r.code}; mismatches: ${[...new Set(r.mismatches.map((m) => m.check))].join(', ') || 'none'}`,
      );
      assert.deepEqual(problems(r), []);
      assert.notDeepEqual(
        shown(r, reading.shows),
        [],
        `${reading.name} not reported by any of ${reading.shows.join(', ')}; mismatches: ${r.mismatches.map((m) => `[${m.check}] ${m.received}`).join('\n')}`,
      );
    });
  }

  test(`all at once (--reading other: ${otherReadings().length} readings)`, {
    timeout: 300_000,
  }, async (t) => {
    const r = await gateOnReadings(['other']);
    t.diagnostic(
      `exit ${r.code}; mismatches: ${[...new Set(r.mismatches.map((m) => m.check))].join(', ')}`,
    );
    assert.deepEqual(problems(r), []);
    // The load area, which reports the rest, runs them all at once in readings-gate.test.ts.
    const silent = otherReadings().filter((x) => !shownByLoad(x) && shown(r, x.shows).length === 0);
    assert.deepEqual(
      silent.map((x) => x.name),
      [],
      'each reading reported',
    );
  });
});
