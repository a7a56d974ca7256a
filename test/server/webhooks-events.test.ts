import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WEBHOOK_EVENTS } from '../../server/webhooks/events.ts';
import { WebhookDispatcher } from '../../server/webhooks/dispatcher.ts';
import type { WebhookFaults } from '../../server/webhooks/types.ts';
import { header, type Receiver, startReceiver } from './webhooks-receiver.ts';

const EMITTED = ['ticket.created', 'ticket.closed', 'sla.at_risk', 'customer.replied'];

interface Setup {
  wh: WebhookDispatcher;
  a: Receiver;
  b: Receiver;
  other: Receiver;
}

/**
 * Workspace ws_1: endpoint A chose ticket.created; endpoint B chose ticket.closed and
 * sla.at_risk. Workspace ws_2: an endpoint that chose everything. Every event of EMITTED is
 * emitted once in ws_1.
 */
async function scenario(faults: WebhookFaults, check: (s: Setup) => void): Promise<void> {
  const [a, b, other] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
  const wh = new WebhookDispatcher({ retryDelaysMs: [], faults });
  try {
    wh.addEndpoint({ workspaceId: 'ws_1', url: a.url, events: ['ticket.created'], form: 'plain' });
    wh.addEndpoint({
      workspaceId: 'ws_1',
      url: b.url,
      events: ['ticket.closed', 'sla.at_risk'],
      form: 'plain',
    });
    wh.addEndpoint({
      workspaceId: 'ws_2',
      url: other.url,
      events: [...WEBHOOK_EVENTS],
      form: 'plain',
    });
    for (const event of EMITTED) wh.emit('ws_1', event, { event });
    await wh.idle(5000);
    check({ wh, a, b, other });
  } finally {
    await Promise.allSettled([wh.close(), a.close(), b.close(), other.close()]);
  }
}

const eventsOf = (r: Receiver) => r.received.map((x) => header(x, 'x-service-event')).sort();

describe('event subscription', () => {
  test('only the chosen events reach an endpoint, and only in its workspace', () =>
    scenario({}, ({ wh, a, b, other }) => {
      assert.deepEqual(eventsOf(a), ['ticket.created']);
      assert.deepEqual(eventsOf(b), ['sla.at_risk', 'ticket.closed']);
      assert.deepEqual(eventsOf(other), []);
      assert.equal(wh.deliveries().length, 3);
      assert.ok(wh.deliveries().every((d) => d.state === 'delivered'));
    }));

  test('an event nobody chose creates no delivery', async () => {
    const wh = new WebhookDispatcher();
    try {
      wh.addEndpoint({
        workspaceId: 'ws_1',
        url: 'http://127.0.0.1:9/never',
        events: ['ticket.created'],
        form: 'both',
      });
      assert.deepEqual(wh.emit('ws_1', 'macro.applied', { event: 'macro.applied' }), []);
      assert.deepEqual(wh.emit('ws_9', 'ticket.created', { event: 'ticket.created' }), []);
      assert.deepEqual(wh.deliveries(), []);
    } finally {
      await wh.close();
    }
  });

  test('unsubscribedDelivered fault: every event of the workspace reaches every endpoint', () =>
    scenario({ unsubscribedDelivered: true }, ({ a, b, other }) => {
      assert.deepEqual(eventsOf(a), [...EMITTED].sort());
      assert.deepEqual(eventsOf(b), [...EMITTED].sort());
      // Only subscription is bent: workspace isolation holds.
      assert.deepEqual(eventsOf(other), []);
    }));

  test('crossWorkspace fault: a workspace-2 endpoint gets workspace 1’s events it chose; selection still applies', () =>
    scenario({ crossWorkspace: true }, ({ a, b, other }) => {
      assert.deepEqual(eventsOf(a), ['ticket.created']);
      assert.deepEqual(eventsOf(b), ['sla.at_risk', 'ticket.closed']);
      assert.deepEqual(eventsOf(other), [...EMITTED].sort());
    }));

  test('the fault can be switched at run time', async () => {
    const a = await startReceiver();
    const wh = new WebhookDispatcher({ retryDelaysMs: [] });
    try {
      wh.addEndpoint({
        workspaceId: 'ws_1',
        url: a.url,
        events: ['ticket.created'],
        form: 'plain',
      });
      assert.equal(wh.emit('ws_1', 'ticket.closed', {}).length, 0);
      wh.setFaults({ unsubscribedDelivered: true });
      assert.equal(wh.emit('ws_1', 'ticket.closed', {}).length, 1);
      wh.setFaults({});
      assert.equal(wh.emit('ws_1', 'ticket.closed', {}).length, 0);
      await wh.idle(5000);
      assert.deepEqual(eventsOf(a), ['ticket.closed']);
    } finally {
      await Promise.allSettled([wh.close(), a.close()]);
    }
  });
});

describe('endpoints', () => {
  test('added, listed per workspace, removed', async () => {
    const wh = new WebhookDispatcher({ now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    try {
      const e1 = wh.addEndpoint({
        workspaceId: 'ws_1',
        url: 'https://hooks.example/a',
        events: ['ticket.created', 'ticket.created'],
        secret: 'whsec_endpoint_list_1',
        form: 'prefixed',
      });
      const e2 = wh.addEndpoint({
        workspaceId: 'ws_2',
        url: 'http://127.0.0.1:9/b',
        events: ['sla.at_risk'],
        secret: '',
        form: 'plain',
      });
      assert.equal(e1.createdAt, '2026-01-02T03:04:05.000Z');
      assert.deepEqual(e1.events, ['ticket.created']);
      assert.equal('secret' in e2, false, 'an empty secret is no secret');
      assert.notEqual(e1.id, e2.id);
      assert.deepEqual(
        wh.listEndpoints('ws_1').map((e) => e.id),
        [e1.id],
      );
      assert.equal(wh.listEndpoints().length, 2);
      assert.equal(wh.removeEndpoint(e1.id), true);
      assert.equal(wh.removeEndpoint(e1.id), false);
      assert.deepEqual(
        wh.listEndpoints().map((e) => e.id),
        [e2.id],
      );
      assert.deepEqual(wh.emit('ws_1', 'ticket.created', {}), []);
    } finally {
      await wh.close();
    }
  });

  test('misuse is rejected', async () => {
    const wh = new WebhookDispatcher();
    try {
      const base = { workspaceId: 'ws_1', events: ['ticket.created'], form: 'plain' as const };
      assert.throws(() => wh.addEndpoint({ ...base, url: 'not a url' }), /url/);
      assert.throws(() => wh.addEndpoint({ ...base, url: 'ftp://127.0.0.1/x' }), /http/);
      assert.throws(
        () => wh.addEndpoint({ ...base, url: 'http://127.0.0.1/x', events: [] }),
        /event/,
      );
      assert.equal(wh.listEndpoints().length, 0);
    } finally {
      await wh.close();
    }
  });

  test('the delivery log filters by workspace and endpoint and hands out copies', async () => {
    const a = await startReceiver();
    const wh = new WebhookDispatcher({ retryDelaysMs: [] });
    try {
      const e1 = wh.addEndpoint({
        workspaceId: 'ws_1',
        url: a.url,
        events: ['x.y'],
        form: 'plain',
      });
      const e2 = wh.addEndpoint({
        workspaceId: 'ws_2',
        url: a.url,
        events: ['x.y'],
        form: 'plain',
      });
      wh.emit('ws_1', 'x.y', { n: 1 });
      wh.emit('ws_2', 'x.y', { n: 2 });
      await wh.idle(5000);
      assert.equal(wh.deliveries().length, 2);
      assert.deepEqual(
        wh.deliveries({ workspaceId: 'ws_2' }).map((d) => d.endpointId),
        [e2.id],
      );
      assert.deepEqual(
        wh.deliveries({ endpointId: e1.id }).map((d) => d.body),
        ['{"n":1}'],
      );
      const [d] = wh.deliveries({ endpointId: e1.id });
      d!.state = 'failed';
      d!.attempts.length = 0;
      assert.equal(wh.deliveries({ endpointId: e1.id })[0]?.state, 'delivered');
      assert.equal(wh.deliveries({ endpointId: e1.id })[0]?.attempts.length, 1);
    } finally {
      await Promise.allSettled([wh.close(), a.close()]);
    }
  });
});
