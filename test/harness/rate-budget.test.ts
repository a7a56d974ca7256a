/**
 * The key's rate budget (core/http/rate-budget.ts), on a virtual clock: it paces before the
 * reserve, waits out a 429 and retries it, gives up (inconclusive) when the wait would exceed the
 * request's allowance, its deadline or the process's total, stops pacing on headers that cannot
 * describe a limiter — and several workers, each with its own budget and obeying only the
 * server's headers, drain a real token bucket (the reference deployment's) without one 429.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { TokenBucketLimiter } from '../../server/rate-limit/token-bucket.ts';
import {
  type AnswerView,
  DEFAULT_RATE_BUDGET,
  RateBudget,
  type RateBudgetOptions,
  configureRateBudgets,
  rateBudget,
  readRateHeaders,
} from '../../core/http/rate-budget.ts';

/** A budget on a virtual clock whose sleeps only move the clock (and are recorded). */
function virtual(o: Partial<RateBudgetOptions> = {}) {
  const clock = { t: 0, sleeps: [] as number[] };
  const budget = new RateBudget({
    ...DEFAULT_RATE_BUDGET,
    now: () => clock.t,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
    ...o,
  });
  return { budget, clock };
}

const answer = (status: number, limit: number, remaining: number, extra = {}): AnswerView => ({
  status,
  headers: {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    ...extra,
  },
});

/** Sends through the budget, answering from `answers` in turn. */
function sendAll(budget: RateBudget, answers: AnswerView[], opts = {}) {
  let i = 0;
  return budget.send(
    async () => answers[Math.min(i++, answers.length - 1)]!,
    (a) => a,
    opts,
  );
}

describe('rate budget', () => {
  test('reads the headers: Retry-After in seconds or as a date against Date; nonsense flagged', () => {
    assert.deepEqual(readRateHeaders({ 'retry-after': '2', 'x-ratelimit-limit': '120' }), {
      retryAfterMs: 2000,
      limit: 120,
    });
    assert.equal(
      readRateHeaders({
        'retry-after': 'Wed, 21 Oct 2026 07:28:03 GMT',
        date: 'Wed, 21 Oct 2026 07:28:00 GMT',
      }).retryAfterMs,
      3000,
    );
    assert.equal(readRateHeaders({ 'x-ratelimit-remaining': '-3' }).nonsense, true);
    assert.equal(readRateHeaders({ 'x-ratelimit-remaining': 'lots' }).remaining, undefined);
  });

  test('sends at once above the reserve, waits for the refill at it (capped)', () => {
    const { budget, clock } = virtual({ sharers: 2, reservePerSharer: 5 });
    assert.equal(budget.paceMs(), 0, 'nothing known: no wait');
    budget.observe(answer(200, 120, 11));
    assert.equal(budget.paceMs(), 0, 'reserve 10 + 1 left');
    budget.observe(answer(200, 120, 9));
    // Two requests short; 120/min shared by two workers = one per second each.
    assert.equal(budget.paceMs(), 2000);
    clock.t += 1500;
    assert.equal(budget.paceMs(), 500, 'the refill since counts');
    budget.observe(answer(200, 120, 0));
    assert.equal(budget.paceMs(), DEFAULT_RATE_BUDGET.maxPaceWaitMs, 'one wait is capped');
  });

  test('the key-wide reserve (--reserve) holds Remaining above it: waits just the refill the deficit needs', () => {
    const { budget, clock } = virtual({ sharers: 2, reservePerSharer: 5, keyReserve: 40 });
    budget.observe(answer(200, 120, 41));
    assert.equal(budget.paceMs(), 0, '41 left: one above the reserve of 40');
    budget.observe(answer(200, 120, 40));
    // One short at the reserve; 120/min shared by two workers = one per second each.
    assert.equal(budget.paceMs(), 1000);
    clock.t += 1000;
    assert.equal(budget.paceMs(), 0, 'no longer than the refill it needs');
    // The larger of the two reserves binds: a small --reserve keeps the per-process margin.
    const small = virtual({ sharers: 2, reservePerSharer: 5, keyReserve: 3 }).budget;
    small.observe(answer(200, 120, 10));
    assert.equal(small.paceMs(), 1000);
  });

  test("the key-wide reserve is the run key's only: another key of the run keeps its own few", () => {
    // A Growth key's reserve (200) would leave a Team key (burst 200) below it from the start.
    configureRateBudgets({ keyReserve: 200, reserveFor: 'Bearer stk_full_run_key' });
    try {
      const url = 'http://127.0.0.1:9/reserve-for';
      const runKey = rateBudget(url, 'Bearer stk_full_run_key');
      const other = rateBudget(url, 'Bearer stk_full_other_workspace');
      runKey.observe(answer(200, 600, 150));
      other.observe(answer(200, 120, 150));
      assert.ok(runKey.paceMs() > 0, 'the run key keeps its 200');
      assert.equal(other.paceMs(), 0, "the other key is not held to the run key's reserve");
    } finally {
      configureRateBudgets({ keyReserve: 0, reserveFor: undefined });
    }
  });

  test('a 429 is waited out (Retry-After) and retried; the answer after it is returned', async () => {
    const { budget, clock } = virtual();
    const r = await sendAll(budget, [
      answer(429, 120, 0, { 'retry-after': '2' }),
      answer(201, 120, 0),
    ]);
    assert.equal(r.result.status, 201);
    assert.equal(r.retried, 1);
    assert.equal(r.exhausted, undefined);
    assert.deepEqual(clock.sleeps, [2000], 'Retry-After obeyed, no pacing on top of it');
    assert.deepEqual(
      { ...budget.stats, waitedMs: undefined },
      { sent: 2, rateLimited: 1, retried: 1, waitedMs: undefined, inconclusive: 0 },
    );
  });

  test('a 429 it cannot wait out is given up as inconclusive, never sent again at once', async () => {
    const { budget, clock } = virtual({ maxRequestWaitMs: 5000 });
    const r = await sendAll(budget, [answer(429, 120, 0, { 'retry-after': '30' })]);
    assert.equal(r.result.status, 429);
    assert.match(r.exhausted ?? '', /^inconclusive: .*rate limit is spent.*not a contract failure/);
    assert.deepEqual(clock.sleeps, [], 'no pointless wait');
    assert.equal(budget.stats.inconclusive, 1);

    const d = virtual();
    const late = await sendAll(d.budget, [answer(429, 120, 0, { 'retry-after': '2' })], {
      deadline: 1000,
    });
    assert.ok(late.exhausted, 'the caller’s deadline bounds the wait');
  });

  test('past the process total every later 429 is given up at once', async () => {
    const { budget } = virtual({ maxTotalWaitMs: 3000, maxPaceWaitMs: 0 });
    const first = await sendAll(budget, [
      answer(429, 120, 0, { 'retry-after': '2' }),
      answer(429, 120, 0, { 'retry-after': '2' }),
    ]);
    assert.match(first.exhausted ?? '', /already waited 2\.0 s/);
    const next = await sendAll(budget, [answer(429, 120, 0, { 'retry-after': '1' })]);
    assert.match(next.exhausted ?? '', /already waited/);
    assert.equal(next.retried, 0);
  });

  test('pace: false sends once and returns the 429 as is (a test that provokes one)', async () => {
    const { budget, clock } = virtual();
    budget.observe(answer(200, 120, 0));
    const r = await sendAll(budget, [answer(429, 120, 0, { 'retry-after': '1' })], {
      pace: false,
    });
    assert.equal(r.result.status, 429);
    assert.equal(r.exhausted, undefined);
    assert.deepEqual(clock.sleeps, []);
    // Provoked on purpose: not a 429 the run's pacing met.
    assert.equal(budget.stats.rateLimited, 0);
  });

  test('headers that cannot describe a limiter stop the pacing (static 0, negative)', async () => {
    const { budget, clock } = virtual();
    // Limit 1, Remaining 0 on every 2xx: two capped waits, then none.
    for (let i = 0; i < 6; i++) await sendAll(budget, [answer(200, 1, 0)]);
    assert.equal(clock.sleeps.length, 2, `${clock.sleeps}`);
    const neg = virtual();
    for (let i = 0; i < 4; i++) await sendAll(neg.budget, [answer(200, 600, -5)]);
    assert.deepEqual(neg.clock.sleeps, []);
  });

  test('workers obeying only the headers drain a token bucket without a 429', () => {
    fc.assert(
      fc.property(
        fc.record({
          workers: fc.integer({ min: 1, max: 4 }),
          plan: fc.constantFrom(
            { ratePerMin: 120, burst: 200 },
            { ratePerMin: 600, burst: 1000 },
            { ratePerMin: 60, burst: 30 },
          ),
          latencies: fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 20 }),
          // A deployment running its clock faster than real time (the re-run test's time scale).
          scale: fc.constantFrom(1, 5),
        }),
        ({ workers, plan, latencies, scale }) => {
          const limiter = new TokenBucketLimiter();
          let t = 0;
          const budgets = Array.from(
            { length: workers },
            () =>
              new RateBudget({
                ...DEFAULT_RATE_BUDGET,
                sharers: workers,
                now: () => t,
              }),
          );
          // Per worker its next event: ready to send, or its answer arriving (decided earlier).
          const next = budgets.map(() => ({ at: 0, answer: undefined as AnswerView | undefined }));
          let sent = 0;
          let refused = 0;
          // Each worker sends one request at a time, as fast as its budget lets it.
          while (sent < plan.burst + 100) {
            const times = next.map((e) => e.at);
            const w = times.indexOf(Math.min(...times));
            const e = next[w]!;
            t = e.at;
            if (e.answer) {
              budgets[w]!.observe(e.answer);
              e.answer = undefined;
              continue;
            }
            const wait = budgets[w]!.paceMs();
            if (wait > 0) {
              e.at = t + wait;
              continue;
            }
            const d = limiter.take('k', plan, t * scale);
            sent++;
            if (!d.allowed) refused++;
            e.answer = answer(d.allowed ? 200 : 429, plan.ratePerMin, d.remaining);
            e.at = t + latencies[sent % latencies.length]!;
          }
          assert.equal(refused, 0, `${refused} of ${sent} refused`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
