/**
 * A clean run is clean, and a change is still a change. `npm start`'s reporting (runAll, then
 * the reports of run/write-reports.ts) of two unchanged full runs of the reference deployment
 * compares to zero findings — the second against the first's snapshot — and so does a `--grep`
 * run, which says what it left out instead. Load included: the contract suite runs for real; the
 * plan-limit area of each run is the load engine's own judgement (`judgeRun`, load/lib) of a
 * simulated token bucket with network noise from 1 to 800 ms (test/compare/simulated-load.ts),
 * because the real one takes ≈100 s a run — test/load/clean-full-run.test.ts is the one run with
 * real load against the shipped baseline. And a real change does show: a burst of 1010 where
 * there was 1000 (measured tightly), a header gone from an operation a test of both runs
 * exercised.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REFERENCE_BASELINE } from '../../compat/compare/baseline.ts';
import { compareBehaviour } from '../../compat/compare/compare-snapshots.ts';
import { loadSnapshot } from '../../compat/compare/load-snapshot.ts';
import { readPlaywrightTests } from '../../contracts/collect.ts';
import { loadConfig } from '../../core/config.ts';
import { limitObservation } from '../../load/limit-observation.ts';
import type { LoadResult } from '../../load/lib/result.ts';
import { loadArea } from '../../load/load-step.ts';
import { verdictTable } from '../../report/console.ts';
import type { Summary } from '../../report/summary.ts';
import { runAll } from '../../run/run-all.ts';
import { writeReports } from '../../run/write-reports.ts';
import { prng } from '../load/limits.arb.ts';
import { simulatedLoad } from './simulated-load.ts';

const dir = mkdtempSync(join(tmpdir(), 'clean-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of a default `npm start`: no target, no faults. */
const base = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('HARNESS_')),
);

/** Both plans of the embedded deployment, measured through noise drawn from `seed`. */
function load(seed: number, growthBurst?: number, jitterS?: number): LoadResult[] {
  const rnd = prng(seed);
  // 1 ms to 800 ms: from a quiet machine to one so loaded that the growth burst is inconclusive.
  const jitter = () => jitterS ?? 0.001 + rnd() * 0.8;
  return [
    simulatedLoad({ plan: 'team', jitterS: jitter(), seed: seed * 2 + 1 }),
    simulatedLoad({
      plan: 'growth',
      jitterS: jitter(),
      seed: seed * 2 + 2,
      ...(growthBurst ? { burst: growthBurst } : {}),
    }),
  ];
}

/**
 * One `npm start` of the embedded deployment: the contract suite for real (load and fuzz skipped
 * in runAll), then the run's reports written again with `results` as its load area — the way
 * runAll writes them after a real load step. `baseline`: the snapshot to compare with, or `off`.
 */
async function fullRun(
  name: string,
  baseline: string,
  results: LoadResult[],
  extra: { grep?: string; faults?: string[] } = {},
): Promise<{ summary: Summary; snapshot: string }> {
  const out = join(dir, name);
  const env = { ...base, HARNESS_BASELINE: baseline };
  const started = Date.now();
  const r = await runAll({
    skip: ['load', 'fuzz'],
    outDir: out,
    env,
    verbose: false,
    log: () => {},
    ...extra,
  });
  const contracts = r.summary.areas.contracts;
  if (!extra.faults) assert.equal(contracts?.verdict, 'pass', contracts?.headline);
  const { compatibility: _, load: __, ...areas } = r.summary.areas;
  const limits = results.map(limitObservation);
  const { summary } = writeReports({
    out,
    runId: r.summary.runId,
    started,
    cfg: loadConfig(env, extra.faults?.length ? { faults: extra.faults } : {}),
    areas: results.length ? { ...areas, load: loadArea(results) } : areas,
    tests: readPlaywrightTests(join(out, 'playwright.json')),
    limits,
    baseline: { partial: Boolean(extra.grep) },
    ...(extra.grep ? { grep: extra.grep } : {}),
  });
  return { summary, snapshot: join(out, 'snapshot.json') };
}

const findings = (s: Summary) =>
  (s.compatibility?.findings ?? []).map((f) => `${f.level} ${f.rule}: ${f.message}`);
const row = (s: Summary, area: string) =>
  verdictTable(s.areas)
    .find((l) => l.startsWith(area))
    ?.split(/\s{2,}/)[1];

describe('two unchanged full runs, and a --grep run, compare to zero findings', {
  timeout: 900_000,
}, () => {
  let first: Awaited<ReturnType<typeof fullRun>>;
  let second: Awaited<ReturnType<typeof fullRun>>;
  let grep: Awaited<ReturnType<typeof fullRun>>;
  before(async () => {
    first = await fullRun('run-1', 'off', load(1));
    second = await fullRun('run-2', first.snapshot, load(2));
    grep = await fullRun('grep', first.snapshot, [], { grep: '@auth.invalid-key-401' });
  });

  test('the first run measured both plans, with intervals, and recorded what it exercised', () => {
    const s = loadSnapshot(first.snapshot);
    assert.deepEqual(s.exercised?.areas, ['contracts', 'load']);
    assert.ok((s.exercised?.tests.length ?? 0) >= 60, `${s.exercised?.tests.length} tests`);
    for (const l of s.limits) {
      assert.ok(l.burst?.low !== undefined && l.burst.high !== undefined, JSON.stringify(l));
      assert.ok(l.ratePerMin?.low !== undefined, JSON.stringify(l));
    }
  });

  test('run 2 against run 1: no finding, and the verdict row says PASS', () => {
    const c = second.summary.compatibility;
    assert.ok(c, 'compared');
    assert.equal(c.error, undefined, c.error);
    assert.deepEqual(findings(second.summary), []);
    assert.equal(row(second.summary, 'compatibility'), 'PASS');
  });

  test('the --grep run: no finding; what it did not run is left out and said so', () => {
    const c = grep.summary.compatibility;
    assert.ok(c, 'compared');
    assert.deepEqual(findings(grep.summary), []);
    const notes = (c.notes ?? []).map((n) => n.message);
    assert.ok(
      notes.some((n) => /compared over the \d+ contract test\(s\) both runs ran/.test(n)),
      notes.join('\n'),
    );
    assert.ok(notes.some((n) => /plan limits were not measured in this run/.test(n)));
    assert.ok(notes.some((n) => /seen in the baseline only by tests this run did not run/.test(n)));
    assert.match(grep.summary.areas.compatibility!.headline, /left out/);
    assert.equal(row(grep.summary, 'compatibility'), 'PASS');
  });

  test('noise is not a change: 40 more pairs of load measurements of the unchanged deployment', () => {
    const snap = loadSnapshot(first.snapshot);
    let inconclusive = 0;
    for (let seed = 10; seed < 50; seed++) {
      const a = { ...snap, limits: load(seed).map(limitObservation) };
      const b = { ...snap, limits: load(seed + 1000).map(limitObservation) };
      const r = compareBehaviour(a, b);
      assert.deepEqual(
        r.findings.map((f) => f.message),
        [],
        `seed ${seed}: ${JSON.stringify([a.limits, b.limits])}`,
      );
      inconclusive += r.notes.filter((n) => n.kind === 'inconclusive').length;
    }
    // The noise reached what the load area itself calls inconclusive: those were notes.
    assert.ok(inconclusive > 0, 'no pair was noisy enough to be inconclusive');
  });

  test('a real change still shows: growth burst 1000 → 1010, measured tightly, is ERR', async () => {
    const before = await fullRun('burst-1000', 'off', load(3, undefined, 0.001));
    const after = await fullRun('burst-1010', before.snapshot, load(4, 1010, 0.001));
    assert.deepEqual(
      findings(after.summary).map((f) => f.split(':')[0]),
      ['ERR limit-burst-changed'],
    );
    assert.match(
      findings(after.summary)[0]!,
      /growth burst was 1000(\.\d)? \[.*\], is 1010(\.\d)? \[.*\]: the intervals do not overlap/,
    );
    assert.equal(row(after.summary, 'compatibility'), 'ERR');
  });

  test('the shipped baseline (a real run, load included) against a contracts run: no finding', async () => {
    const r = await fullRun('vs-shipped', REFERENCE_BASELINE, []);
    assert.deepEqual(findings(r.summary), []);
    assert.ok((r.summary.compatibility?.notes ?? []).some((n) => n.kind === 'not-measured'));
  });

  test('a header gone from an operation a test of both runs exercised is ERR, --grep or not', async () => {
    const faulty = await fullRun('no-ratelimit-on-4xx', first.snapshot, [], {
      grep: '@auth.invalid-key-401',
      faults: ['ratelimit-headers-missing-on-4xx'],
    });
    const found = findings(faulty.summary);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      assert.ok(
        found.includes(`ERR ratelimit-header-removed: GET /v1/tickets 401 no longer sends ${h}`),
        found.join('\n'),
      );
    assert.equal(row(faulty.summary, 'compatibility'), 'ERR');
  });
});
