import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceClock } from '../../server/clock.ts';
import { TokenBucketLimiter } from '../../server/rate-limit/token-bucket.ts';
import { makeService } from './harness.ts';

const TEAM = { ratePerMin: 120, burst: 200 };

describe('token bucket arithmetic on a fake clock', () => {
  test('exactly B accepted from full at one instant, then refill r per second', () => {
    const lim = new TokenBucketLimiter();
    const t0 = 1_000_000;
    let accepted = 0;
    for (let i = 0; i < 250; i++) if (lim.take('k', TEAM, t0).allowed) accepted++;
    assert.equal(accepted, 200);
    // 120/min = 2 tokens per second: after 1 s exactly two more, then none.
    const later = [1, 2, 3].map(() => lim.take('k', TEAM, t0 + 1000).allowed);
    assert.deepEqual(later, [true, true, false]);
  });

  test('Remaining counts whole tokens down to 0; Reset is when the bucket is full again', () => {
    const lim = new TokenBucketLimiter();
    const d1 = lim.take('k', TEAM, 0);
    assert.equal(d1.remaining, 199);
    assert.equal(d1.resetAtMs, 500); // one token at 2/s
    let last = d1;
    for (let i = 0; i < 199; i++) last = lim.take('k', TEAM, 0);
    assert.equal(last.remaining, 0);
    assert.equal(last.resetAtMs, 100_000); // 200 tokens at 2/s
    const denied = lim.take('k', TEAM, 0);
    assert.equal(denied.allowed, false);
    assert.equal(denied.retryAfterMs, 500);
  });

  test('the clock scale multiplies service time; advance jumps it', () => {
    let real = 1000;
    const c = new ServiceClock({ scale: 10, source: () => real });
    real += 500;
    assert.equal(c.now(), 1000 + 5000);
    c.advance(60_000);
    assert.equal(c.now(), 1000 + 5000 + 60_000);
    assert.throws(() => new ServiceClock({ scale: 0 }), /positive/);
  });
});

/** Sends n GETs at the current fake instant; returns statuses and the last reply. */
async function burst(svc: ReturnType<typeof makeService>, key: string, n: number) {
  let accepted = 0;
  let last: Awaited<ReturnType<typeof svc.call>> | undefined;
  let first429: typeof last;
  for (let i = 0; i < n; i++) {
    last = await svc.call('GET', '/v1/tickets?limit=1', key);
    if (last.status === 200) accepted++;
    else if (last.status === 429) first429 ??= last;
  }
  return { accepted, last: last!, first429 };
}

describe('through the service: headers, 429 and each limiter fault', () => {
  test('correct: B accepted, 429 with Retry-After, Remaining 0, Reset epoch s; keys have own buckets', async () => {
    const svc = makeService();
    try {
      const b = await burst(svc, svc.ws.team.keys.full, 205);
      assert.equal(b.accepted, 200);
      assert.equal(b.first429!.status, 429);
      assert.equal(b.first429!.headers['retry-after'], '1');
      assert.equal(b.first429!.headers['x-ratelimit-remaining'], '0');
      assert.equal(b.first429!.headers['x-ratelimit-limit'], '120');
      const reset = Number(b.first429!.headers['x-ratelimit-reset']);
      assert.equal(reset, Math.ceil((svc.clock.source() + 100_000) / 1000));
      // Key B of the same workspace is untouched (U25: one bucket per key).
      assert.equal((await burst(svc, svc.ws.team.keys.full2, 1)).accepted, 1);
      assert.equal(
        (await svc.call('GET', '/v1/tickets', svc.ws.team.keys.full2)).headers[
          'x-ratelimit-remaining'
        ],
        '198',
      );
      svc.clock.advance(1000);
      assert.equal((await burst(svc, svc.ws.team.keys.full, 3)).accepted, 2);
    } finally {
      await svc.close();
    }
  });

  test("the admin clock's jump is SLA time, not refill time: a drained key stays drained, Reset in step with Date", async () => {
    for (const reading of [[], ['U24=fixed-window'], ['U24=sliding-window']] as const) {
      const svc = makeService({ readings: reading });
      try {
        const key = svc.ws.team.keys.full;
        assert.equal((await burst(svc, key, 205)).accepted, 200, `${reading}`);
        const jump = await svc.admin('POST', '/admin/clock/advance', { seconds: 3600 });
        assert.equal(jump.status, 200);
        // An hour of service time later, nothing has refilled: staging's buckets refill in real time.
        const after = await svc.call('GET', '/v1/tickets', key);
        assert.equal(after.status, 429, `${reading}: refilled by the jump`);
        // Reset is on the service clock, as Date is: about 100 s after the jumped Date, not before it.
        const date = Date.parse(String(after.headers.date)) / 1000;
        const reset = Number(after.headers['x-ratelimit-reset']);
        assert.ok(reset > date && reset <= date + 101, `${reading}: Reset ${reset}, Date ${date}`);
        // Real time still refills (the fake clock's source): 100 s is a whole bucket, or a window.
        svc.clock.advance(100_000);
        assert.ok((await burst(svc, key, 5)).accepted > 0, `${reading}: 100 s of real time`);
      } finally {
        await svc.close();
      }
    }
  });

  test('Growth and Enterprise numbers', async () => {
    const svc = makeService({ enterprise: { ratePerMin: 300, burst: 450 } });
    try {
      assert.equal((await burst(svc, svc.ws.growth.keys.full, 1003)).accepted, 1000);
      const e = await burst(svc, svc.ws.enterprise.keys.full, 452);
      assert.equal(e.accepted, 450);
      assert.equal(e.last.headers['x-ratelimit-limit'], '300');
    } finally {
      await svc.close();
    }
  });

  const cases: Array<[string, (svc: ReturnType<typeof makeService>) => Promise<void>]> = [
    [
      'burst-201',
      async (svc) => assert.equal((await burst(svc, svc.ws.team.keys.full, 210)).accepted, 201),
    ],
    [
      'burst-150',
      async (svc) => assert.equal((await burst(svc, svc.ws.team.keys.full, 210)).accepted, 150),
    ],
    ...(['rate-130', 'rate-100'] as const).map(
      (f) =>
        [
          f,
          async (svc: ReturnType<typeof makeService>) => {
            const key = svc.ws.team.keys.full;
            await burst(svc, key, 200);
            let accepted = 0;
            for (let s = 0; s < 60; s++) {
              svc.clock.advance(1000);
              accepted += (await burst(svc, key, 4)).accepted;
            }
            assert.equal(accepted, f === 'rate-130' ? 130 : 100);
          },
        ] as [string, (svc: ReturnType<typeof makeService>) => Promise<void>],
    ),
    [
      'starves-past-burst',
      async (svc) => {
        // Drained, then 1.5× the rate for a minute, every 429 ignored: a bucket grants its 120
        // (two of every three), the starving one none.
        const key = svc.ws.team.keys.full;
        await burst(svc, key, 200);
        let accepted = 0;
        for (let i = 0; i < 180; i++) {
          svc.clock.advance(1000 / 3);
          accepted += (await burst(svc, key, 1)).accepted;
        }
        assert.equal(accepted, 0);
      },
    ],
    [
      'remaining-off-by-one',
      async (svc) => {
        const b = await burst(svc, svc.ws.team.keys.full, 201);
        assert.equal(b.first429!.headers['x-ratelimit-remaining'], '1');
      },
    ],
    [
      'global-bucket',
      async (svc) => {
        // Another workspace's key (the seeded `other` Team workspace) is refused once Team's is
        // drained: one bucket for every key of every workspace.
        await burst(svc, svc.ws.team.keys.full, 200);
        assert.equal((await burst(svc, svc.ws.other.keys.full, 1)).accepted, 0);
      },
    ],
  ];

  for (const [fault, check] of cases) {
    test(`fault ${fault} changes the limiter as named (and the correct one does not)`, async () => {
      const bad = makeService({ faults: [fault] });
      const good = makeService();
      try {
        await check(bad);
        await assert.rejects(
          () => check(good),
          `${fault}: the check must fail on the correct deployment`,
        );
      } finally {
        await bad.close();
        await good.close();
      }
    });
  }
});

type Svc = ReturnType<typeof makeService>;

/** Each reading of the rate-limit gaps (server/readings/limits.ts) changes what it says, as named. */
describe('through the service: each reading of U22–U25', () => {
  const readings: Array<[string, (svc: Svc) => Promise<void>]> = [
    [
      'U22=no-retry-after',
      async (svc) => {
        const b = await burst(svc, svc.ws.team.keys.full, 201);
        assert.equal(b.first429!.status, 429);
        assert.equal(b.first429!.headers['retry-after'], undefined);
        assert.equal(b.first429!.headers['x-ratelimit-remaining'], '0');
      },
    ],
    [
      'U23=epoch-ms',
      async (svc) => {
        const r = await svc.call('GET', '/v1/tickets', svc.ws.team.keys.full);
        // One token at 2/s: whole again half a second later, to the millisecond.
        assert.equal(Number(r.headers['x-ratelimit-reset']), svc.clock.source() + 500);
      },
    ],
    [
      'U23=delta-seconds',
      async (svc) => {
        const b = await burst(svc, svc.ws.team.keys.full, 200);
        // 200 tokens at 2/s: whole again in 100 s.
        assert.equal(b.last.headers['x-ratelimit-reset'], '100');
        svc.clock.advance(30_000);
        const r = await svc.call('GET', '/v1/tickets', svc.ws.team.keys.full);
        assert.equal(r.headers['x-ratelimit-reset'], '71');
      },
    ],
    [
      'U24=fixed-window',
      async (svc) => {
        const key = svc.ws.team.keys.full;
        await burst(svc, key, 200);
        svc.clock.advance(20_000); // a bucket would have 40 tokens back; a window has none until it rolls
        const mid = (await burst(svc, key, 50)).accepted;
        assert.ok(
          mid === 0 || mid === 200 || mid === 50,
          `window gives all or nothing, got ${mid}`,
        );
        assert.notEqual(mid, 40);
      },
    ],
    [
      'U24=sliding-window',
      async (svc) => {
        const key = svc.ws.team.keys.full;
        await burst(svc, key, 200);
        svc.clock.advance(20_000);
        assert.equal((await burst(svc, key, 50)).accepted, 0);
        svc.clock.advance(80_000);
        assert.equal((await burst(svc, key, 250)).accepted, 200);
      },
    ],
    [
      'U25=per-workspace',
      async (svc) => {
        await burst(svc, svc.ws.team.keys.full, 200);
        assert.equal((await burst(svc, svc.ws.team.keys.full2, 1)).accepted, 0);
        // Another workspace's key keeps its own bucket.
        assert.equal((await burst(svc, svc.ws.other.keys.full, 1)).accepted, 1);
      },
    ],
  ];

  for (const [reading, check] of readings) {
    test(`${reading} changes the limiter as named (and our assumption does not)`, async () => {
      const other = makeService({ readings: [reading] });
      const ours = makeService();
      try {
        await check(other);
        await assert.rejects(() => check(ours), `${reading}: the check must fail on our reading`);
      } finally {
        await other.close();
        await ours.close();
      }
    });
  }
});
