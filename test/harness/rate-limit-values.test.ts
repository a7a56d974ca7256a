/**
 * The rate-limit value checks (core/checks/catalogue/rate-limit-values.ts) are sound: against the
 * reference deployment's own token bucket, answers seen by several workers sending with one key
 * at once — concurrent requests within a worker, other clients spending the key meanwhile, any
 * latency, the Date stamped anywhere between the decision and the answer — never fail them; and
 * headers that cannot come from that bucket (static, frozen, changing Limit, negative) do.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { TokenBucketLimiter } from '../../server/rate-limit/token-bucket.ts';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';

const EPOCH = Date.parse('2026-03-01T10:00:00Z');

interface Sent {
  worker: number;
  sentAt: number;
  decideAt: number;
  answeredAt: number;
  /** Where between decision and answer the Date header is stamped (0..1). */
  stamp: number;
}

function exchange(
  s: Pick<Sent, 'sentAt' | 'answeredAt'> & { dateAt: number },
  status: number,
  headers: Record<string, string>,
  method = 'GET',
): Exchange {
  return {
    request: { method, url: 'http://127.0.0.1/v1/tickets', headers: { authorization: 'Bearer k' } },
    response: {
      status,
      headers: { date: new Date(EPOCH + s.dateAt).toUTCString(), ...headers },
      bodyText: '',
    },
    durationMs: s.answeredAt - s.sentAt,
    sentAt: s.sentAt,
    answeredAt: s.answeredAt,
  };
}

/** Every sequence and range check over each worker's exchanges: the failures. */
function judge(byWorker: Exchange[][]): string[] {
  const out: string[] = [];
  for (const exs of byWorker) {
    const v = new Verdict(checks, 'sim');
    const mine = exs.filter((e) => e.request.headers.authorization);
    v.checkSequences(mine, mine);
    for (const ex of mine) v.check('ratelimit.values-in-range', ex);
    out.push(...v.failures().map((f) => `${f.check}: ${f.received}`));
  }
  return out;
}

const batch = fc.record({
  gapMs: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 3000 })),
  size: fc.integer({ min: 1, max: 3 }),
  latencies: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 6, maxLength: 6 }),
  stamp: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('rate-limit value checks', () => {
  test('never fail on answers of the reference token bucket, whatever else spends the key', () => {
    fc.assert(
      fc.property(
        fc.record({
          plan: fc.constantFrom(
            { ratePerMin: 120, burst: 200 },
            { ratePerMin: 600, burst: 1000 },
            { ratePerMin: 6, burst: 3 },
          ),
          workers: fc.array(fc.array(batch, { minLength: 1, maxLength: 40 }), {
            minLength: 1,
            maxLength: 3,
          }),
          foreign: fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 300 }),
          offset: fc.integer({ min: 0, max: 999 }),
          drainFirst: fc.integer({ min: 0, max: 1000 }),
        }),
        ({ plan, workers, foreign, offset, drainFirst }) => {
          // Times first (they do not depend on the answers), then every decision in time order.
          const sent: Sent[] = [];
          workers.forEach((batches, worker) => {
            let t = offset;
            for (const b of batches) {
              t += b.gapMs;
              let last = t;
              for (let i = 0; i < b.size; i++) {
                const decideAt = t + b.latencies[i * 2]!;
                const answeredAt = decideAt + b.latencies[i * 2 + 1]!;
                sent.push({ worker, sentAt: t, decideAt, answeredAt, stamp: b.stamp });
                last = Math.max(last, answeredAt);
              }
              t = last; // the next batch goes once the whole batch has answered
            }
          });
          const limiter = new TokenBucketLimiter();
          for (let i = 0; i < Math.min(drainFirst, plan.burst); i++)
            limiter.take('k', plan, EPOCH + offset);
          const decisions = [
            ...sent.map((s) => ({ at: s.decideAt, s })),
            ...foreign.map((at) => ({ at: at + offset, s: undefined })),
          ].sort((a, b) => a.at - b.at);
          const byWorker: Exchange[][] = workers.map(() => []);
          for (const { at, s } of decisions) {
            const d = limiter.take('k', plan, EPOCH + at);
            if (!s) continue;
            const dateAt = s.decideAt + s.stamp * (s.answeredAt - s.decideAt);
            byWorker[s.worker]!.push(
              exchange({ ...s, dateAt }, d.allowed ? 200 : 429, {
                'x-ratelimit-limit': String(plan.ratePerMin),
                'x-ratelimit-remaining': String(d.remaining),
              }),
            );
          }
          for (const exs of byWorker) exs.sort((a, b) => a.sentAt! - b.sentAt!);
          assert.deepEqual(judge(byWorker), []);
        },
      ),
      { numRuns: 150 },
    );
  });

  /** A quick sequential run of `n` answers, 5 ms apart, with the headers `h(i)` gives. */
  const quick = (n: number, h: (i: number) => Record<string, string>, method = 'GET') =>
    Array.from({ length: n }, (_, i) =>
      exchange(
        { sentAt: i * 5, answeredAt: i * 5 + 4, dateAt: i * 5 + 2 },
        200,
        h(i),
        i === n - 1 ? method : 'GET',
      ),
    );
  const failed = (exs: Exchange[]) => [...new Set(judge([exs]).map((f) => f.split(':')[0]))];

  test('static headers (Limit 1, Remaining 0 on every 2xx) grant more than they allow', () => {
    const f = failed(quick(3, () => ({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' })));
    assert.ok(f.includes('ratelimit.grants-within-remaining'), `${f}`);
  });

  test('a Remaining that does not fall over a quick run of grants', () => {
    const f = failed(
      quick(30, () => ({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '999' })),
    );
    assert.deepEqual(f, ['ratelimit.remaining-falls']);
    // The same run counting down is fine.
    assert.deepEqual(
      failed(
        quick(30, (i) => ({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': `${999 - i}` })),
      ),
      [],
    );
  });

  test('a Limit that changes for one key, and a negative Remaining', () => {
    const f = failed(
      quick(
        3,
        (i) => ({ 'x-ratelimit-limit': i === 2 ? '1000' : '600', 'x-ratelimit-remaining': '9' }),
        'POST',
      ),
    );
    assert.ok(f.includes('ratelimit.limit-stable'), `${f}`);
    assert.deepEqual(
      failed(quick(1, () => ({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '-2' }))),
      ['ratelimit.values-in-range'],
    );
  });
});
