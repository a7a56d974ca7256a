/**
 * The reference deployment's events end to end: API actions → payloads → dispatcher → a real
 * loopback receiver. Payload schemas come from the spec; the wiring faults change what they name.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { startService } from '../../server/start.ts';
import { validate } from '../../core/schemas/registry.ts';
import { EVENT_SCHEMAS } from '../../core/checks/catalogue/webhooks.ts';
import { CaptureReceiver, deliveryJson } from '../../core/webhooks/capture-receiver.ts';

const ALL = Object.keys(EVENT_SCHEMAS);

async function scenario(faults: string[] = []) {
  const svc = await startService({ faults, webhookRetryDelaysMs: [20, 40] });
  const rx = new CaptureReceiver();
  const url = await rx.start();
  const w = svc.credentials.workspaces.team;
  const h = { authorization: `Bearer ${w.keys.full}`, 'content-type': 'application/json' };
  const admin = { 'x-admin-token': svc.credentials.adminToken, 'content-type': 'application/json' };
  try {
    const sub = await fetch(`${svc.baseUrl}/admin/webhooks`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        workspace_id: w.id,
        url: `${url}/all`,
        events: ALL,
        secret: 'whsec_test_secret',
        form: 'both',
      }),
    });
    assert.equal(sub.status, 201);
    const post = (path: string, body?: unknown) =>
      fetch(`${svc.baseUrl}${path}`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify(body ?? {}),
      }).then((r) => r.json());
    const t = await post('/v1/tickets', {
      subject: 'Ünïcode 🎫',
      requester: { email: 'c@x.io' },
      priority: 'high',
    });
    await post(`/v1/tickets/${t.id}/messages`, { body: 'hello', author: 'customer' });
    await post(`/v1/tickets/${t.id}/messages`, { body: 'hi!', author: 'agent' });
    await post(`/v1/tickets/${t.id}/messages`, { body: 'note', author: 'agent', internal: true });
    const macros = await fetch(`${svc.baseUrl}/v1/macros`, { headers: h }).then((r) => r.json());
    const escalate = macros.data.find((m: { name: string }) => m.name === 'Escalate');
    await post(`/v1/macros/${escalate.id}/apply`, { ticket_id: t.id });
    const t2 = await post('/v1/tickets', {
      subject: 'at risk',
      requester: { email: 'd@x.io', name: 'D' },
      priority: 'high',
    });
    await fetch(`${svc.baseUrl}/admin/clock/advance`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ seconds: 46 * 60 }),
    });
    await post(`/v1/tickets/${t.id}/close`);
    await fetch(`${svc.baseUrl}/admin/deliveries/flush`, {
      method: 'POST',
      headers: admin,
      body: '{}',
    });
    return { deliveries: rx.deliveries.map((d) => ({ d, json: deliveryJson(d) })), t2 };
  } finally {
    await rx.close();
    await svc.close();
  }
}

describe('events of the reference deployment', () => {
  test('every event fires through the API with a payload valid against the spec', async () => {
    const { deliveries, t2 } = await scenario();
    const events = deliveries.map((x) => x.json.event);
    for (const e of ALL)
      assert.ok(events.includes(e), `no ${e} delivered (got ${events.join(', ')})`);
    for (const { json } of deliveries) {
      assert.deepEqual(validate(EVENT_SCHEMAS[json.event]!, json), [], `${json.event} payload`);
    }
    const atRisk = deliveries.filter((x) => x.json.event === 'sla.at_risk');
    assert.deepEqual(
      atRisk.map((x) => x.json.ticket.id),
      [t2.id],
      'sla.at_risk once, for the unanswered ticket only',
    );
    const customer = deliveries.find((x) => x.json.event === 'customer.replied')!.json;
    assert.equal(customer.customer.email, 'c@x.io');
    assert.equal(customer.customer.name, 'c@x.io', 'a nameless requester is named by email (U3)');
  });

  test('fault payload-customer-missing removes customer from payloads, nothing else', async () => {
    const { deliveries } = await scenario(['payload-customer-missing']);
    assert.ok(deliveries.length > 5, 'events still delivered');
    assert.ok(
      deliveries.every((x) => !('customer' in x.json) && 'ticket' in x.json),
      'customer absent, ticket present',
    );
  });

  test('fault payload-ticket-url-missing removes ticket.url only', async () => {
    const { deliveries } = await scenario(['payload-ticket-url-missing']);
    assert.ok(deliveries.length > 5, 'events still delivered');
    assert.ok(
      deliveries.every((x) => !('url' in x.json.ticket) && typeof x.json.ticket.id === 'string'),
      'ticket.url absent, the rest of the ticket present',
    );
    assert.ok(deliveries.every((x) => 'customer' in x.json));
  });

  test('fault ticket-replied-never suppresses ticket.replied only', async () => {
    const { deliveries } = await scenario(['ticket-replied-never']);
    const events = new Set(deliveries.map((x) => x.json.event));
    assert.equal(events.has('ticket.replied'), false, 'ticket.replied must not fire');
    assert.ok(events.has('customer.replied') && events.has('agent.replied'), 'the others do');
    assert.equal(events.size, ALL.length - 1, `other events still fire: ${[...events].join(', ')}`);
  });

  test('fault payload-customer-agent names the agent as every customer, nothing else', async () => {
    const { deliveries } = await scenario(['payload-customer-agent']);
    assert.ok(deliveries.length > 5, 'events still delivered');
    for (const { json } of deliveries) {
      assert.deepEqual(json.customer, { name: 'Support Agent', email: 'agent@desk.example' });
      assert.deepEqual(validate(EVENT_SCHEMAS[json.event]!, json), [], 'still schema-valid');
    }
  });

  test('fault closed-payload-status-open shows ticket.closed still open; the other events are true', async () => {
    const { deliveries } = await scenario(['closed-payload-status-open']);
    const closed = deliveries.filter((x) => x.json.event === 'ticket.closed');
    assert.deepEqual(
      closed.map((x) => x.json.ticket.status),
      ['open'],
    );
    const changed = deliveries.filter((x) => x.json.event === 'ticket.status_changed');
    assert.ok(
      changed.some((x) => x.json.ticket.status === 'closed'),
      'status_changed is true',
    );
  });

  test('fault close-delivers-created delivers a second ticket.created when the ticket closes', async () => {
    const { deliveries } = await scenario(['close-delivers-created']);
    const created = deliveries.filter((x) => x.json.event === 'ticket.created');
    // Two tickets were created, one was closed: three ticket.created, the last after the close.
    assert.equal(created.length, 3);
    const events = deliveries.map((x) => x.json.event);
    assert.ok(events.lastIndexOf('ticket.created') > events.indexOf('ticket.closed'));
    assert.equal(created.at(-1)!.json.ticket.status, 'closed');
  });

  test('fault deliveries-sent-twice sends each delivery again, same id, after a 2xx', async () => {
    const { deliveries } = await scenario(['deliveries-sent-twice']);
    const ids = deliveries.map((x) => x.d.headers['x-service-delivery']);
    assert.ok(ids.length > 0 && ids.length % 2 === 0, `${ids.length} deliveries`);
    for (const id of new Set(ids)) assert.equal(ids.filter((x) => x === id).length, 2, id);
    assert.ok(deliveries.every((x) => x.d.answered === 204));
  });

  test('fault webhook-body-latin1 sends Latin-1 bytes under application/json, signed as sent', async () => {
    const { deliveries } = await scenario(['webhook-body-latin1']);
    const created = deliveries.find((x) => x.json?.event === 'ticket.created')!;
    const raw = created.d.raw;
    assert.equal(created.d.headers['content-type'], 'application/json');
    assert.ok(raw.includes(Buffer.from('\u00dcn\u00efcode', 'latin1')), 'Ü and ï as single bytes');
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(raw), 'not UTF-8');
    const sig = createHmac('sha256', 'whsec_test_secret').update(raw).digest('hex');
    assert.equal(
      created.d.headers['service-signature'],
      sig,
      'the bytes sent are the bytes signed',
    );
  });

  test('fault sla-at-risk-never suppresses sla.at_risk only', async () => {
    const { deliveries } = await scenario(['sla-at-risk-never']);
    const events = new Set(deliveries.map((x) => x.json.event));
    assert.equal(events.has('sla.at_risk'), false, 'sla.at_risk must not fire');
    assert.equal(events.size, ALL.length - 1, `other events still fire: ${[...events].join(', ')}`);
  });
});
