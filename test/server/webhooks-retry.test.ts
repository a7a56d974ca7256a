import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { classifyAttempt } from '../../server/webhooks/outcome.ts';
import { DEFAULT_RETRY_DELAYS_MS, retryDelay } from '../../server/webhooks/backoff.ts';
import type { Delivery, DispatcherOptions } from '../../server/webhooks/types.ts';
import { WebhookDispatcher } from '../../server/webhooks/dispatcher.ts';
import { header, type Receiver, type Reply, seeded, startReceiver } from './webhooks-receiver.ts';

/** Runs `body` with one receiver and one dispatcher with one endpoint, and always closes both. */
async function withEndpoint(
  respond: (index: number) => Reply,
  opts: DispatcherOptions,
  body: (wh: WebhookDispatcher, rx: Receiver, endpointId: string) => Promise<void>,
): Promise<void> {
  const rx = await startReceiver((_r, i) => respond(i));
  const wh = new WebhookDispatcher(opts);
  try {
    const ep = wh.addEndpoint({
      workspaceId: 'ws_a',
      url: rx.url,
      events: ['ticket.created'],
      secret: 'whsec_retry_test_01',
      form: 'both',
    });
    await body(wh, rx, ep.id);
  } finally {
    await Promise.allSettled([wh.close(), rx.close()]);
  }
}

async function emitOne(wh: WebhookDispatcher): Promise<Delivery> {
  wh.emit('ws_a', 'ticket.created', { event: 'ticket.created', n: 1 });
  await wh.idle(5000);
  const [d] = wh.deliveries();
  assert.ok(d);
  return d;
}

describe('backoff schedule', () => {
  test('each delay lies in (base * (1 - jitter), base]; none after the schedule', () => {
    const schedule = [1000, 5000, 30000];
    const rnd = seeded(7);
    for (let i = 0; i < 1000; i++) {
      const k = i % schedule.length;
      const base = schedule[k]!;
      const d = retryDelay(k, schedule, 0.2, rnd);
      assert.ok(d !== undefined && d > base * 0.8 && d <= base, `delay ${d} for base ${base}`);
    }
    assert.equal(retryDelay(3, schedule, 0.2, rnd), undefined);
    assert.equal(retryDelay(1, schedule, 0, rnd), 5000);
    assert.equal(
      retryDelay(0, schedule, 1, () => 0.5),
      500,
    );
  });

  test('default schedule gives at least five attempts, growing', () => {
    // Attempts = the first one plus one per entry of the schedule.
    assert.ok(DEFAULT_RETRY_DELAYS_MS.length + 1 >= 5);
    for (let i = 1; i < DEFAULT_RETRY_DELAYS_MS.length; i++)
      assert.ok(DEFAULT_RETRY_DELAYS_MS[i]! > DEFAULT_RETRY_DELAYS_MS[i - 1]!);
  });
});

describe('retry policy (U14)', () => {
  test('verdict per status', () => {
    const table: Array<[number | undefined, string]> = [
      [200, 'delivered'],
      [204, 'delivered'],
      [299, 'delivered'],
      [undefined, 'retry'],
      [408, 'retry'],
      [429, 'retry'],
      [500, 'retry'],
      [502, 'retry'],
      [503, 'retry'],
      [504, 'retry'],
      [410, 'gone'],
      [400, 'failed'],
      [401, 'failed'],
      [404, 'failed'],
      [422, 'failed'],
      [301, 'failed'],
    ];
    for (const [status, verdict] of table)
      assert.equal(classifyAttempt(status), verdict, `${status}`);
  });

  for (const status of [408, 429, 500, 502, 503, 504]) {
    test(`${status} is retried with the same delivery id and bytes`, () =>
      withEndpoint(
        (i) => (i === 0 ? status : 200),
        { retryDelaysMs: [5, 10] },
        async (wh, rx) => {
          const d = await emitOne(wh);
          assert.equal(d.state, 'delivered');
          assert.deepEqual(
            d.attempts.map((a) => a.status),
            [status, 200],
          );
          assert.equal(rx.received.length, 2);
          const [a, b] = rx.received;
          assert.equal(header(a!, 'x-service-delivery'), d.id);
          assert.equal(header(b!, 'x-service-delivery'), d.id);
          assert.deepEqual(a!.raw, b!.raw);
          assert.equal(header(a!, 'service-signature'), header(b!, 'service-signature'));
        },
      ));
  }

  for (const status of [400, 401, 404, 422]) {
    test(`${status} is final: failed after one attempt`, () =>
      withEndpoint(
        () => status,
        { retryDelaysMs: [5, 10] },
        async (wh, rx) => {
          const d = await emitOne(wh);
          assert.equal(d.state, 'failed');
          assert.equal(d.attempts.length, 1);
          assert.equal(rx.received.length, 1);
        },
      ));
  }

  test('410 stops retries: state gone, and the endpoint stays', () =>
    withEndpoint(
      () => 410,
      { retryDelaysMs: [5, 10] },
      async (wh, rx, endpointId) => {
        const d = await emitOne(wh);
        assert.equal(d.state, 'gone');
        assert.deepEqual(
          d.attempts.map((a) => a.status),
          [410],
        );
        assert.equal(rx.received.length, 1);
        assert.deepEqual(
          wh.listEndpoints().map((e) => e.id),
          [endpointId],
        );
      },
    ));

  test('a timeout counts as a failure and is retried', () =>
    withEndpoint(
      (i) => (i === 0 ? 'hang' : 200),
      { retryDelaysMs: [5, 10], timeoutMs: 300 },
      async (wh, rx) => {
        const d = await emitOne(wh);
        assert.equal(d.state, 'delivered');
        assert.equal(d.attempts.length, 2);
        assert.match(d.attempts[0]?.error ?? '', /timeout/);
        assert.equal(d.attempts[0]?.status, undefined);
        assert.equal(d.attempts[1]?.status, 200);
        assert.equal(rx.received.length, 2);
        assert.equal(header(rx.received[1]!, 'x-service-delivery'), d.id);
      },
    ));

  test('the schedule ends: every attempt used, then failed', () =>
    withEndpoint(
      () => 500,
      { retryDelaysMs: [5, 10, 20] },
      async (wh, rx) => {
        const d = await emitOne(wh);
        assert.equal(d.state, 'failed');
        assert.equal(d.attempts.length, 4);
        assert.equal(rx.received.length, 4);
        assert.equal(new Set(rx.received.map((r) => header(r, 'x-service-delivery'))).size, 1);
      },
    ));

  test('a connection error is retried', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const wh = new WebhookDispatcher({ retryDelaysMs: [5, 10] });
    try {
      wh.addEndpoint({
        workspaceId: 'ws_a',
        url: `http://127.0.0.1:${port}/hook`,
        events: ['ticket.created'],
        form: 'plain',
      });
      const d = await emitOne(wh);
      assert.equal(d.state, 'failed');
      assert.equal(d.attempts.length, 3);
      for (const a of d.attempts) {
        assert.equal(a.status, undefined);
        assert.match(a.error ?? '', /ECONNREFUSED|connect/i);
      }
    } finally {
      await wh.close();
    }
  });

  for (const status of [503, 500]) {
    test(`without retries (U14=no-retries): exactly one attempt on ${status}`, () =>
      withEndpoint(
        (i) => (i === 0 ? status : 200),
        { retryDelaysMs: [5, 10], behaviour: { retries: false } },
        async (wh, rx) => {
          const d = await emitOne(wh);
          assert.equal(d.state, 'failed');
          assert.deepEqual(
            d.attempts.map((a) => a.status),
            [status],
          );
          assert.equal(rx.received.length, 1);
        },
      ));
  }

  test('the delivery id in another header (U14=delivery-id-header), the same on every attempt', () =>
    withEndpoint(
      (i) => (i === 0 ? 500 : 200),
      { retryDelaysMs: [5, 10], behaviour: { deliveryIdHeader: 'X-Webhook-Id' } },
      async (wh, rx) => {
        const d = await emitOne(wh);
        assert.equal(d.state, 'delivered');
        const ids = rx.received.map((r) => r.headers['x-webhook-id']);
        assert.deepEqual(ids, [d.id, d.id]);
        assert.equal(rx.received[0]!.headers['x-service-delivery'], undefined);
      },
    ));

  test('removing the endpoint ends its waiting deliveries as failed', () =>
    withEndpoint(
      () => 500,
      { retryDelaysMs: [60_000] },
      async (wh, rx, endpointId) => {
        wh.emit('ws_a', 'ticket.created', { n: 1 });
        while (rx.received.length === 0 || wh.deliveries()[0]?.attempts.length === 0)
          await new Promise((r) => setTimeout(r, 5));
        assert.equal(wh.removeEndpoint(endpointId), true);
        await wh.idle(1000);
        assert.equal(wh.deliveries()[0]?.state, 'failed');
        assert.equal(rx.received.length, 1);
      },
    ));

  test('close aborts an attempt in flight and rejects idle waiters', () =>
    withEndpoint(
      () => 'hang',
      { retryDelaysMs: [5] },
      async (wh, rx) => {
        wh.emit('ws_a', 'ticket.created', { n: 1 });
        while (rx.received.length === 0) await new Promise((r) => setTimeout(r, 5));
        const waiting = assert.rejects(wh.idle(), /closed/);
        await wh.close();
        await waiting;
        const [d] = wh.deliveries();
        assert.equal(d?.state, 'pending');
        assert.match(d?.attempts[0]?.error ?? '', /aborted/);
        assert.deepEqual(wh.emit('ws_a', 'ticket.created', { n: 2 }), []);
      },
    ));
});

describe('a receiver failing 30 % of the time', () => {
  const SEED = 20261122;
  const EVENTS = 240;
  const FAIL_RATE = 0.3;
  const schedule = [5, 10, 20, 40, 80, 80, 80, 80];
  const jitter = 0.2;

  test(`${EVENTS} events: none lost, one id per delivery across its retries, spaced per the schedule`, async () => {
    // Failure is decided per (event, attempt number) from the seed, so arrival order under
    // concurrency cannot change which requests fail.
    const attemptsSeen = new Map<string, number>();
    const streams = new Map<number, () => number>();
    const rx = await startReceiver((r) => {
      const id = header(r, 'x-service-delivery') ?? '';
      const n = attemptsSeen.get(id) ?? 0;
      attemptsSeen.set(id, n + 1);
      const seq = (JSON.parse(r.raw.toString('utf8')) as { seq: number }).seq;
      let stream = streams.get(seq);
      if (!stream) {
        stream = seeded(SEED + seq);
        streams.set(seq, stream);
      }
      return stream() < FAIL_RATE ? 503 : 200;
    });
    const wh = new WebhookDispatcher({ retryDelaysMs: schedule, jitter, random: seeded(SEED) });
    try {
      wh.addEndpoint({
        workspaceId: 'ws_a',
        url: rx.url,
        events: ['ticket.created'],
        secret: 'whsec_flaky_receiver_1',
        form: 'prefixed',
      });
      for (let seq = 0; seq < EVENTS; seq++)
        wh.emit('ws_a', 'ticket.created', { event: 'ticket.created', seq });
      await wh.idle(15_000);

      const ds = wh.deliveries();
      assert.equal(ds.length, EVENTS);
      const lost = ds.filter((d) => d.state !== 'delivered');
      assert.deepEqual(lost, [], `seed ${SEED}: lost deliveries`);

      // Receiver side: each event accepted exactly once, under exactly one delivery id.
      const idsBySeq = new Map<number, Set<string>>();
      const acceptedBySeq = new Map<number, number>();
      let failures = 0;
      for (const d of ds) {
        const seq = (JSON.parse(d.body) as { seq: number }).seq;
        const mine = rx.received.filter((r) => header(r, 'x-service-delivery') === d.id);
        assert.equal(mine.length, d.attempts.length, `receiver saw every attempt of ${d.id}`);
        for (const r of mine) assert.equal(r.raw.toString('utf8'), d.body);
        const ids = idsBySeq.get(seq) ?? new Set();
        ids.add(d.id);
        idsBySeq.set(seq, ids);
        acceptedBySeq.set(seq, (acceptedBySeq.get(seq) ?? 0) + 1);
        failures += d.attempts.filter((a) => a.status === 503).length;
        assert.deepEqual(
          d.attempts.map((a) => a.status),
          [...d.attempts.slice(0, -1).map(() => 503), 200],
        );
        // Lower bounds only: timers never fire early, but may fire late on a busy machine.
        for (let i = 1; i < d.attempts.length; i++) {
          const gap = Date.parse(d.attempts[i]!.at) - Date.parse(d.attempts[i - 1]!.at);
          const base = schedule[i - 1]!;
          assert.ok(gap >= base * (1 - jitter) - 2, `retry ${i} of ${d.id}: ${gap} ms < ${base}`);
        }
      }
      assert.equal(idsBySeq.size, EVENTS);
      for (const ids of idsBySeq.values()) assert.equal(ids.size, 1);
      for (const n of acceptedBySeq.values()) assert.equal(n, 1);
      const total = rx.received.length;
      assert.equal(total, EVENTS + failures);
      assert.ok(failures > 0, 'the receiver did fail some requests');
      const rate = failures / total;
      assert.ok(rate > 0.2 && rate < 0.4, `failure rate ${rate.toFixed(3)} near 30 %`);
    } finally {
      await Promise.allSettled([wh.close(), rx.close()]);
    }
  });
});
