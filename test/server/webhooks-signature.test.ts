import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Delivery, WebhookFaults } from '../../server/webhooks/types.ts';
import { WebhookDispatcher } from '../../server/webhooks/dispatcher.ts';
import type { DeliveryForm } from '../../core/signature/forms.ts';
import { header, type Received, startReceiver } from './webhooks-receiver.ts';

const secret = 'whsec_reference_test_5f2c9a';
// Non-ASCII text and a float make any re-encoding of the body visible in the bytes.
const payload = {
  event: 'ticket.created',
  ticket: { id: 'tk_1', subject: 'Zoë — 東京 ✓', status: 'open', priority: 'high', url: 'x' },
  customer: { name: 'Zoë', email: 'zoe@example.com' },
  score: 1.5,
};

/** Independent of the service code: the documented recipe, applied to the received bytes. */
function hmac(key: string, bytes: Buffer | string): string {
  return createHmac('sha256', key).update(bytes).digest('hex');
}

async function deliverOnce(
  form: DeliveryForm,
  opts: { secret?: string; faults?: WebhookFaults } = {},
): Promise<{ r: Received; d: Delivery }> {
  const rx = await startReceiver();
  const wh = new WebhookDispatcher({ retryDelaysMs: [], faults: opts.faults });
  try {
    wh.addEndpoint({
      workspaceId: 'ws_a',
      url: rx.url,
      events: ['ticket.created'],
      form,
      ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
    });
    const [created] = wh.emit('ws_a', 'ticket.created', payload);
    assert.ok(created);
    await wh.idle(5000);
    const [d] = wh.deliveries();
    const [r] = rx.received;
    assert.ok(d && r, 'one delivery received');
    assert.equal(rx.received.length, 1);
    assert.equal(d.state, 'delivered');
    return { r, d };
  } finally {
    await Promise.allSettled([wh.close(), rx.close()]);
  }
}

describe('webhook delivery request', () => {
  test('carries the exact serialised bytes, the event, the delivery id and the user agent', async () => {
    const { r, d } = await deliverOnce('both', { secret });
    assert.deepEqual(r.raw, Buffer.from(JSON.stringify(payload), 'utf8'));
    assert.equal(r.raw.toString('utf8'), d.body);
    assert.equal(header(r, 'content-type'), 'application/json');
    assert.equal(header(r, 'x-service-event'), 'ticket.created');
    assert.equal(header(r, 'x-service-delivery'), d.id);
    assert.equal(header(r, 'user-agent'), 'SupportTicketing-Webhooks/1');
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0]?.status, 200);
  });
});

describe('signature header forms, recomputed over the received bytes', () => {
  test('prefixed: X-Service-Signature is sha256=<lowercase hex>, no plain header', async () => {
    const { r } = await deliverOnce('prefixed', { secret });
    assert.equal(header(r, 'x-service-signature'), `sha256=${hmac(secret, r.raw)}`);
    assert.equal(header(r, 'service-signature'), undefined);
  });

  test('plain: service-signature is the bare lowercase hex, no prefixed header', async () => {
    const { r } = await deliverOnce('plain', { secret });
    assert.equal(header(r, 'service-signature'), hmac(secret, r.raw));
    assert.match(header(r, 'service-signature') ?? '', /^[0-9a-f]{64}$/);
    assert.equal(header(r, 'x-service-signature'), undefined);
  });

  test('both: both headers, each verifying', async () => {
    const { r } = await deliverOnce('both', { secret });
    const hex = hmac(secret, r.raw);
    assert.equal(header(r, 'x-service-signature'), `sha256=${hex}`);
    assert.equal(header(r, 'service-signature'), hex);
  });

  test('no secret: no signature header in any form', async () => {
    const { r } = await deliverOnce('both');
    assert.equal(header(r, 'x-service-signature'), undefined);
    assert.equal(header(r, 'service-signature'), undefined);
    assert.equal(header(r, 'x-service-event'), 'ticket.created');
  });
});

describe('signature faults change exactly what they name', () => {
  /** Headers that must not change under a signature fault (the delivery id always differs). */
  const stable = ['content-type', 'user-agent', 'x-service-event', 'content-length'];

  async function compare(faults: WebhookFaults) {
    const base = await deliverOnce('both', { secret });
    const bent = await deliverOnce('both', { secret, faults });
    assert.deepEqual(bent.r.raw, base.r.raw, 'the bytes sent do not change');
    for (const h of stable) assert.equal(header(bent.r, h), header(base.r, h), h);
    return { base: base.r, bent: bent.r, hex: hmac(secret, bent.r.raw) };
  }

  test('signatureUppercase: the same hex, uppercased, in both headers', async () => {
    const { base, bent } = await compare({ signatureUppercase: true });
    assert.equal(
      header(bent, 'x-service-signature'),
      `sha256=${(header(base, 'service-signature') ?? '').toUpperCase()}`,
    );
    assert.equal(
      header(bent, 'service-signature'),
      header(base, 'service-signature')?.toUpperCase(),
    );
    assert.notEqual(header(bent, 'service-signature'), header(base, 'service-signature'));
  });

  test('prefixMissing: X-Service-Signature is the bare hex; service-signature untouched', async () => {
    const { base, bent, hex } = await compare({ prefixMissing: true });
    assert.equal(header(bent, 'x-service-signature'), hex);
    assert.equal(header(bent, 'service-signature'), hex);
    assert.equal(header(base, 'x-service-signature'), `sha256=${hex}`);
  });

  test('signatureWrongSecret: well-formed, but does not verify with the right secret', async () => {
    const { bent, hex } = await compare({ signatureWrongSecret: true });
    const prefixed = header(bent, 'x-service-signature') ?? '';
    const plain = header(bent, 'service-signature') ?? '';
    assert.match(prefixed, /^sha256=[0-9a-f]{64}$/);
    assert.match(plain, /^[0-9a-f]{64}$/);
    assert.notEqual(plain, hex);
    assert.equal(prefixed, `sha256=${plain}`);
  });

  test('signatureReserialized: verifies only against re-serialised JSON, not the bytes received', async () => {
    const { bent, hex } = await compare({ signatureReserialized: true });
    const plain = header(bent, 'service-signature');
    const reserialised = JSON.stringify(JSON.parse(bent.raw.toString('utf8')), null, 1);
    assert.notEqual(reserialised, bent.raw.toString('utf8'));
    assert.notEqual(plain, hex);
    assert.equal(plain, hmac(secret, reserialised));
    assert.equal(header(bent, 'x-service-signature'), `sha256=${hmac(secret, reserialised)}`);
  });

  test('no fault: both headers verify over the received bytes', async () => {
    const { bent, hex } = await compare({});
    assert.equal(header(bent, 'service-signature'), hex);
    assert.equal(header(bent, 'x-service-signature'), `sha256=${hex}`);
  });
});
