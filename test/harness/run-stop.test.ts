/**
 * How a run stops early, in process: the default time limit and why it is
 * what it is; the clock's one stop path (the deadline and an interrupt both call `onStop`, once);
 * an interrupted area — one that returns what it found, one that does not return — and the areas
 * after it; an interrupted run's verdict in every report. The separate-process kills are in
 * gate-interrupt.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { emptyArea, errorArea } from '../../core/area.ts';
import { loadConfig } from '../../core/config.ts';
import { renderConsole } from '../../report/console.ts';
import { guardArea, runClock, stopReason } from '../../run/area-guard.ts';
import { defaultTimeLimit } from '../../run/default-time-limit.ts';
import { detectionMatrixTimeoutMs } from '../../run/detection-limits.ts';
import { writeReports } from '../../run/write-reports.ts';

describe('the default time limit', () => {
  test('the areas’ own limits plus a minute, in whole minutes', () => {
    const full = defaultTimeLimit({ areas: ['contracts', 'load', 'fuzz'], detect: false });
    assert.equal(full.seconds, 18 * 60);
    assert.match(full.name, /default time limit \(18 min; --max-seconds/);
    assert.equal(
      defaultTimeLimit({ areas: ['contracts', 'fuzz'], detect: false }).seconds,
      15 * 60,
    );
    // --detect adds the matrix's hang guard (whole minutes) and a stop for each of its two runs.
    assert.equal(
      defaultTimeLimit({ areas: ['contracts', 'load', 'fuzz'], detect: true }).seconds,
      18 * 60 + detectionMatrixTimeoutMs() / 1000 + 60,
    );
    // Never below what the contract suite alone may take, whatever its own limit.
    const long = defaultTimeLimit({
      areas: ['contracts'],
      detect: false,
      contractsTimeoutMs: 3_600_000,
    });
    assert.ok(long.seconds > 3600);
  });
});

describe('the run clock: one stop path', () => {
  test('the deadline calls onStop once, with the limit', async () => {
    const stops: string[] = [];
    const clock = runClock(0.05, Date.now(), { onStop: (r) => stops.push(r) });
    await sleep(150);
    clock.dispose();
    assert.deepEqual(stops, [
      "the run's time limit (--max-seconds / HARNESS_RUN_MAX_SECONDS 0.05 s) was reached",
    ]);
    assert.match(stopReason(clock) ?? '', /was reached$/);
  });

  test('an interrupt calls onStop at once, even one that came before the run', () => {
    const ac = new AbortController();
    const stops: string[] = [];
    const clock = runClock(60, Date.now(), { interrupt: ac.signal, onStop: (r) => stops.push(r) });
    assert.equal(stopReason(clock), undefined);
    ac.abort('interrupted by SIGTERM');
    ac.abort('interrupted by SIGINT');
    assert.deepEqual(stops, ['interrupted by SIGTERM']);
    assert.equal(stopReason(clock), 'interrupted by SIGTERM');
    clock.dispose();

    const early: string[] = [];
    const c2 = runClock(60, Date.now(), { interrupt: ac.signal, onStop: (r) => early.push(r) });
    c2.dispose();
    assert.deepEqual(early, ['interrupted by SIGTERM']);
  });
});

describe('an area interrupted', () => {
  test('an in-process area that does not return is let go at once', async () => {
    const ac = new AbortController();
    const clock = runClock(60, Date.now(), { interrupt: ac.signal });
    setTimeout(() => ac.abort('interrupted by SIGTERM'), 20);
    const t0 = Date.now();
    const g = await guardArea(
      'fuzz',
      clock,
      () => new Promise(() => {}),
      () => {},
    );
    clock.dispose();
    assert.ok(Date.now() - t0 < 2_000, 'not waited for');
    assert.equal(g.outOfTime, true);
    assert.equal(g.area.error, 'stopped: interrupted by SIGTERM during this area');
  });

  test('a step that stops itself returns what it found; the next area is not run', async () => {
    const ac = new AbortController();
    const clock = runClock(60, Date.now(), { interrupt: ac.signal });
    const found = { ...emptyArea('pass', '3 tests'), documentedFailures: [] };
    setTimeout(() => ac.abort('interrupted by SIGINT'), 20);
    const g = await guardArea(
      'contracts',
      clock,
      () =>
        new Promise((resolve) =>
          ac.signal.addEventListener('abort', () =>
            setTimeout(() => resolve(errorArea(`stopped: ${ac.signal.reason}`, found)), 200),
          ),
        ),
      () => {},
      20_000,
    );
    assert.equal(g.outOfTime, true);
    assert.equal(g.area.error, 'stopped: interrupted by SIGINT');
    assert.match(g.area.headline, /before that: 3 tests/);
    const next = await guardArea(
      'fuzz',
      clock,
      async () => emptyArea(),
      () => {},
    );
    clock.dispose();
    assert.equal(next.area.error, 'not run: interrupted by SIGINT');
  });

  // CI caught it: SIGTERM reached k6 through the gate, k6 exited 1 with no summary, and the load
  // area returned "load run failed: k6 exited with 1" before the interrupt's own timer fired.
  test('an error the stop caused (a child killed by it) reads as the stop, what was found kept', async () => {
    for (const how of ['returns', 'throws'] as const) {
      const ac = new AbortController();
      const clock = runClock(60, Date.now(), { interrupt: ac.signal });
      const found = { ...emptyArea('pass', 'team: 40 requests'), documentedFailures: [] };
      setTimeout(() => ac.abort('interrupted by SIGTERM'), 20);
      const g = await guardArea(
        'load',
        clock,
        () =>
          new Promise((resolve, reject) =>
            ac.signal.addEventListener('abort', () =>
              how === 'returns'
                ? resolve(
                    errorArea('load run failed: k6 exited with 1 and wrote no summary', found),
                  )
                : reject(new Error('k6 exited with 1 and wrote no summary')),
            ),
          ),
        () => {},
        20_000,
      );
      clock.dispose();
      assert.equal(g.outOfTime, true, how);
      assert.equal(g.area.error, 'stopped: interrupted by SIGTERM during this area', how);
      if (how === 'returns') assert.match(g.area.headline, /before that: load run failed/);
    }
    // Without a stop, an area's own error stays its own.
    const own = await guardArea(
      'load',
      runClock(60),
      async () => errorArea('load run failed: k6 exited with 1'),
      () => {},
    );
    assert.equal(own.area.error, 'load run failed: k6 exited with 1');
    assert.equal(own.outOfTime, false);
  });
});

describe('an interrupted run’s reports', () => {
  const out = mkdtempSync(join(tmpdir(), 'harness-interrupted-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  test('verdict ERROR, exit 2, the reason everywhere — even with a documented failure found', () => {
    const failure = {
      check: 'ticket.created-status-open',
      provenance: 'documented' as const,
      rule: 'A new ticket is open.',
      received: 'status new',
      expected: 'status open',
    };
    const contracts = {
      ...errorArea('stopped: interrupted by SIGTERM', emptyArea('fail', '2 tests')),
      documentedFailures: [failure],
    };
    const { summary, exitCode } = writeReports({
      out,
      runId: 'test',
      started: Date.now(),
      cfg: loadConfig({ HARNESS_BASELINE: 'off' }),
      areas: { contracts, fuzz: errorArea('not run: interrupted by SIGTERM') },
      tests: [],
      results: [],
      limits: [],
      interrupted: 'interrupted by SIGTERM',
    });
    assert.equal(exitCode, 2);
    assert.equal(summary.verdict, 'error');
    assert.equal(summary.interrupted, 'interrupted by SIGTERM');
    assert.deepEqual(
      summary.areas.contracts?.documentedFailures,
      [failure],
      'what it found is kept',
    );
    const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(json.interrupted, 'interrupted by SIGTERM');
    assert.match(
      readFileSync(join(out, 'index.html'), 'utf8'),
      /Interrupted<\/b>: interrupted by SIGTERM/,
    );
    assert.match(readFileSync(join(out, 'junit.xml'), 'utf8'), /interrupted by SIGTERM/);
    assert.match(
      renderConsole(summary, out),
      /^verdict: ERROR \(exit 2\) in [\d.]+ s — interrupted by SIGTERM: the run did not finish/m,
    );
  });
});
