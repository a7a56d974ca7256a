/**
 * handleSummary's input as k6 really provides it: only the stats `summaryTrendStats` asks for
 * (avg, min, max, count) on trends and count/rate on counters, in the classic object or the
 * machine-readable summary. Judged through `readK6Summary`, both give exactly the result the
 * in-memory store gives (what the property tests exercise as the "k6" engine).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildSchedule,
  isTrendName,
  judgeRun,
  MemoryMetrics,
  mergeK6Summaries,
  metricSpecs,
  type MetricReader,
  readAggregates,
  readK6Summary,
  recordSample,
  type Sample,
  wholePhaseFacts,
} from '../../load/lib/index.ts';
import { prng } from './limits.arb.ts';
import { simulateRun, tokenBucket } from './simulated-limiters.ts';

function simulatedStore() {
  const schedule = buildSchedule(
    {
      plan: 'team',
      ratePerMin: 120,
      burst: 200,
      rateSource: 'documented',
      burstSource: 'documented',
    },
    { keys: 2 },
  );
  const samples = simulateRun(schedule, {
    limiters: [tokenBucket(200, 2), tokenBucket(200, 2)],
    ratePerMin: 120,
    jitterS: 0.001,
    random: prng(11),
  });
  const ctx = { ratePerMin: 120, resetHorizonS: Math.max(200 / 2, 60) * 2 + 5 };
  // As plan-limits.ts records: every sample, plus the whole-phase facts of the steady phases
  // (one VU sends each of them from start to end).
  const steady = schedule.phases.filter((p) => p.kind === 'steady').map((p) => p.name);
  const record = (mem: MemoryMetrics, of: readonly Sample[]) => {
    for (const s of of) recordSample(s, ctx, mem);
    for (const name of steady)
      wholePhaseFacts(
        of.filter((s) => s.phase === name),
        ctx,
        mem,
      );
  };
  const mem = new MemoryMetrics();
  record(mem, samples);
  // Two execution segments (0:1/2 and 1/2:1) sharing the key: k6 splits each burst's
  // iterations between them (alternate requests here); a steady phase is one iteration of
  // one VU, so it runs whole on one of them.
  const segments = [new MemoryMetrics(), new MemoryMetrics()] as const;
  for (const [i, seg] of segments.entries())
    record(
      seg,
      samples.filter((s) => (steady.includes(s.phase) ? i === 0 : s.index % 2 === i)),
    );
  return { schedule, mem, segments };
}

/** What k6 puts in `values`: the configured trend stats, or a counter's count and rate. */
function k6Values(read: MetricReader, name: string, wallS: number): Record<string, number> | null {
  const v = read(name);
  if (!v) return null;
  if (!isTrendName(name)) return { count: v.count ?? 0, rate: (v.count ?? 0) / wallS };
  return { avg: v.avg!, min: v.min!, max: v.max!, count: v.count! };
}

function classic(read: MetricReader, wallS: number, t0: number) {
  const metrics: Record<string, unknown> = {
    dropped_iterations: { type: 'counter', contains: 'default', values: { count: 2, rate: 0.1 } },
  };
  for (const { name, kind } of metricSpecs()) {
    const values = k6Values(read, name, wallS);
    if (values) metrics[name] = { type: kind, contains: 'default', values };
  }
  return {
    root_group: { name: '', path: '', groups: [], checks: [] },
    options: { summaryTrendStats: ['avg', 'min', 'max', 'count'], summaryTimeUnit: '' },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: wallS * 1000 },
    metrics,
    setup_data: { t0 },
  };
}

function machineReadable(read: MetricReader, wallS: number) {
  const metrics: unknown[] = [
    {
      name: 'dropped_iterations',
      type: 'counter',
      contains: 'default',
      values: { count: 2, rate: 0.1 },
    },
  ];
  for (const { name, kind } of metricSpecs()) {
    const values = k6Values(read, name, wallS);
    if (values) metrics.push({ name, type: kind, contains: 'default', category: 'custom', values });
  }
  return {
    version: '1.0.0',
    metadata: { generatedAt: '2025-01-15T10:30:45.123Z', k6Version: '2.0.0' },
    config: { execution: 'local', script: 'load/plan-limits.ts', duration: wallS },
    results: { passed: true, metrics, checks: { metrics: {}, orderedChecks: [] } },
  };
}

/**
 * The shared judgement of what a k6 run on the simulated store read: two keys of an unreachable
 * loopback target, started at `t0`; only what a summary carries (its metrics, dropped iterations,
 * wall time) varies.
 */
function judgeK6(
  schedule: ReturnType<typeof simulatedStore>['schedule'],
  read: MetricReader,
  dropped: number,
  wallSeconds: number,
  t0: number,
) {
  return judgeRun({
    engine: 'k6',
    schedule,
    aggregates: readAggregates(read),
    baseUrl: 'http://127.0.0.1:1',
    keys: 2,
    startedAt: new Date(t0).toISOString(),
    wallSeconds,
    dropped,
  });
}

describe('handleSummary input → the shared result', () => {
  const { schedule, mem } = simulatedStore();
  const wallS = 97.5;
  const judge = (read: MetricReader, dropped: number, wallSeconds: number, t0: number) =>
    judgeK6(schedule, read, dropped, wallSeconds, t0);
  const expected = judge(mem.read, 2, wallS, 1_700_000_000_000);

  test('the classic summary object judges exactly like the in-memory store', () => {
    const view = readK6Summary(classic(mem.read, wallS, 1_700_000_000_000));
    assert.equal(view.shape, 'classic');
    assert.equal(view.dropped, 2);
    assert.equal(view.wallSeconds, wallS);
    const t0 = (view.setupData as { t0: number }).t0;
    assert.deepEqual(judge(view.read, view.dropped, view.wallSeconds!, t0), expected);
  });

  test('the machine-readable summary judges exactly like the in-memory store', () => {
    const view = readK6Summary(machineReadable(mem.read, wallS));
    assert.equal(view.shape, 'machine-readable');
    assert.equal(view.dropped, 2);
    assert.equal(view.wallSeconds, wallS);
    assert.deepEqual(
      judge(view.read, view.dropped, view.wallSeconds!, 1_700_000_000_000),
      expected,
    );
  });

  test('the judged run is a real measurement, not an empty one', () => {
    assert.equal(expected.limiter.algorithm, 'token-bucket', expected.limiter.evidence.join('; '));
    assert.equal(expected.estimates.rate.method, 'regression', 'S2 whole in one VU');
    assert.notEqual(expected.estimates.burst?.value ?? null, null, 'B̂ measured');
  });

  test("the pacing trend's percentiles are read in both shapes", () => {
    const values = { avg: 2, min: 0, max: 9, count: 3, 'p(50)': 1, 'p(99)': 7 };
    const classicView = readK6Summary({ metrics: { pacing_lag_ms: { type: 'trend', values } } });
    const mrView = readK6Summary({
      results: { metrics: [{ name: 'pacing_lag_ms', type: 'trend', values }] },
    });
    for (const view of [classicView, mrView])
      assert.deepEqual(view.read('pacing_lag_ms'), {
        avg: 2,
        min: 0,
        max: 9,
        count: 3,
        p50: 1,
        p99: 7,
      });
  });

  test('an unknown shape is refused, not judged as a run that sent nothing', () => {
    assert.throws(() => readK6Summary({ foo: 1 }), /unknown summary shape/);
    assert.throws(() => readK6Summary(undefined), /no summary object/);
  });
});

describe('segment summaries of several load generators → one judged result', () => {
  const { schedule, mem, segments } = simulatedStore();
  const judge = (read: MetricReader) => judgeK6(schedule, read, 0, 97.5, 0);
  const whole = judge(mem.read);

  test('two segment summaries merge into the judgement of the whole run', () => {
    const views = segments.map((m, i) => readK6Summary(classic(m.read, 97.5 - i, 1)));
    const merged = mergeK6Summaries(views);
    assert.equal(merged.dropped, 4, 'each segment reported 2 dropped iterations');
    assert.equal(merged.wallSeconds, 97.5);
    const r = judge(merged.read);
    assert.deepEqual(
      r.verdicts.map((v) => [v.id, v.status]),
      whole.verdicts.map((v) => [v.id, v.status]),
    );
    assert.equal(r.requests.sent, whole.requests.sent);
    assert.ok(Math.abs(r.estimates.burst!.value! - whole.estimates.burst!.value!) < 1e-9);
    assert.ok(Math.abs(r.estimates.rate.perS - whole.estimates.rate.perS) < 1e-6);
    assert.equal(r.limiter.algorithm, 'token-bucket');
  });

  test('one segment alone is not the whole run (the merge is what makes it whole)', () => {
    const one = judge(readK6Summary(classic(segments[0].read, 97.5, 1)).read);
    assert.ok(one.requests.sent < whole.requests.sent);
    assert.notDeepEqual(
      one.verdicts.map((v) => [v.id, v.status]),
      whole.verdicts.map((v) => [v.id, v.status]),
    );
  });
});
