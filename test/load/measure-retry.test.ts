/**
 * The one re-measurement the load suites allow (measure.ts): only a wrong outcome on a machine
 * that demonstrably could not keep the schedule is measured again, at a clock RETRY_SLOWER×
 * slower; a wrong outcome on a machine that kept up is returned as is, for the caller to fail.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoadResult } from '../../load/lib/index.ts';
import { busyReason, measureWithOneRetry, RETRY_SLOWER } from './measure.ts';

/** What busyReason reads of a run: the plan's rate, the clock, and the p99 send lag. */
const run = (p99Ms: number) =>
  ({
    engine: 'node',
    plan: 'team',
    limits: { ratePerMin: 120 },
    target: { timeScale: 10 },
    requests: { pacing: { p50Ms: 1, p99Ms, maxMs: p99Ms } },
  }) as unknown as LoadResult;

test('busyReason: a p99 send lag over half a refill interval is busy, the load average is read too', () => {
  // Team at 10×: 20 tokens/s, half a refill interval is 25 ms.
  assert.equal(busyReason([run(10)], 0), undefined);
  assert.match(
    busyReason([run(40)], 0) ?? '',
    /lagged 40 ms at p99 \(half a refill interval is 25 ms\)/,
  );
  assert.match(busyReason([run(10)], 1000) ?? '', /load average 1000\.0/);
});

test('a right outcome is measured once', async () => {
  const slowers: number[] = [];
  const r = await measureWithOneRetry(
    'x',
    async (slower) => {
      slowers.push(slower);
      return [run(40)] as const;
    },
    () => undefined,
    () => 'busy',
  );
  assert.deepEqual(slowers, [1]);
  assert.equal(r.retried, undefined);
  assert.equal(r.busy, undefined);
});

test('a wrong outcome on a machine that kept up is not re-measured: the caller fails it', async () => {
  const slowers: number[] = [];
  const r = await measureWithOneRetry(
    'x',
    async (slower) => {
      slowers.push(slower);
      return [run(1)] as const;
    },
    () => 'failed: burst',
    () => undefined,
  );
  assert.deepEqual(slowers, [1]);
  assert.equal(r.busy, undefined);
});

test('a wrong outcome on a busy machine is measured once more, the clock slower; right then, it counts', async () => {
  const slowers: number[] = [];
  const r = await measureWithOneRetry(
    'x',
    async (slower) => {
      slowers.push(slower);
      return [run(slower === 1 ? 40 : 1)] as const;
    },
    ([x]) => (x.requests.pacing!.p99Ms > 25 ? 'failed: burst' : undefined),
    (rs) => busyReason(rs, 0),
  );
  assert.deepEqual(slowers, [1, RETRY_SLOWER]);
  assert.ok(RETRY_SLOWER > 1);
  assert.match(r.retried ?? '', /failed: burst — machine busy .*the clock 2× slower/);
  assert.equal(r.busy, undefined);
  assert.equal(r.results[0].requests.pacing!.p99Ms, 1);
});

test('wrong twice on a busy machine: not concluded (busy), never passed', async () => {
  const r = await measureWithOneRetry(
    'x',
    async () => [run(40)] as const,
    () => 'failed: burst',
    (rs) => busyReason(rs, 0),
  );
  assert.match(r.busy ?? '', /^x: failed: burst — machine busy again \(node team: sends lagged/);
});

test('a fault measured too coarsely is measured once more even on a machine that kept up; twice coarse on a machine that kept up is returned for the caller to fail', async () => {
  const slowers: number[] = [];
  const r = await measureWithOneRetry(
    'rate-130',
    async (slower) => {
      slowers.push(slower);
      return [run(1)] as const;
    },
    () => 'rate-130 not caught (failed: none)',
    () => undefined,
    () => 'rate inconclusive (± 4.5 %)',
  );
  assert.deepEqual(slowers, [1, RETRY_SLOWER]);
  assert.match(r.retried ?? '', /measured too coarsely: rate inconclusive/);
  assert.equal(r.busy, undefined, 'not busy: the caller fails the second outcome');
});

test('tooCoarse: only an inconclusive verdict among those that must catch the fault', async () => {
  const { tooCoarse } = await import('./limiter-faults.ts');
  const result = (status: string) =>
    ({
      verdicts: [{ id: 'rate', status, why: 'interval ± 4.5 %' }],
      limiter: { algorithm: 'token-bucket' },
    }) as unknown as LoadResult;
  assert.match(tooCoarse('rate-130', result('inconclusive')) ?? '', /rate inconclusive/);
  assert.equal(tooCoarse('rate-130', result('fail')), undefined, 'caught');
  assert.equal(tooCoarse('rate-130', result('pass')), undefined, 'a pass is no reason to retry');
  assert.equal(tooCoarse('burst-150', result('inconclusive')), undefined, 'not its verdict');
});
