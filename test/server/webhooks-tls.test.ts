import assert from 'node:assert/strict';
import { createHmac, X509Certificate } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { generateSelfSignedCert } from '../../core/webhooks/self-signed.ts';
import { WebhookDispatcher } from '../../server/webhooks/dispatcher.ts';
import { header, type Receiver, startReceiver } from './webhooks-receiver.ts';

const secret = 'whsec_tls_delivery_42';

async function deliverTo(
  rx: Receiver,
  trustedCa: string[] | undefined,
  /** The certificate the endpoint itself is registered as trusted by. */
  ca?: string,
): Promise<{ state: string; errors: string[] }> {
  const wh = new WebhookDispatcher({ retryDelaysMs: [5], ...(trustedCa ? { trustedCa } : {}) });
  try {
    wh.addEndpoint({
      workspaceId: 'ws_1',
      url: rx.url,
      events: ['ticket.created'],
      secret,
      form: 'both',
      ...(ca ? { ca } : {}),
    });
    wh.emit('ws_1', 'ticket.created', { event: 'ticket.created', ticket: { id: 't1' } });
    await wh.idle(5000);
    const [d] = wh.deliveries();
    assert.ok(d);
    return { state: d.state, errors: d.attempts.map((a) => a.error ?? '') };
  } finally {
    await wh.close();
  }
}

describe('HTTPS delivery', () => {
  let pems: { key: string; cert: string };
  let otherCert: string;

  before(async () => {
    [pems, { cert: otherCert }] = await Promise.all([
      generateSelfSignedCert(),
      generateSelfSignedCert(),
    ]);
  });

  test('the generated certificate names 127.0.0.1 and localhost', () => {
    const x = new X509Certificate(pems.cert);
    assert.equal(x.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(x.checkHost('localhost'), 'localhost');
    assert.ok(Date.parse(x.validTo) > Date.now());
  });

  test('verifies when the certificate is trusted explicitly, and the signature holds', async () => {
    assert.equal(process.env.NODE_TLS_REJECT_UNAUTHORIZED, undefined);
    const rx = await startReceiver(() => 200, pems);
    try {
      const { state } = await deliverTo(rx, [pems.cert]);
      assert.equal(state, 'delivered');
      assert.equal(rx.received.length, 1);
      const r = rx.received[0]!;
      const hex = createHmac('sha256', secret).update(r.raw).digest('hex');
      assert.equal(header(r, 'x-service-signature'), `sha256=${hex}`);
      assert.equal(header(r, 'service-signature'), hex);
    } finally {
      await rx.close();
    }
  });

  test("an endpoint registered with its own certificate is delivered to; another endpoint's is not", async () => {
    const rx = await startReceiver(() => 200, pems);
    try {
      assert.equal((await deliverTo(rx, undefined, pems.cert)).state, 'delivered');
      assert.equal((await deliverTo(rx, undefined, otherCert)).state, 'failed');
      assert.equal(rx.received.length, 1);
    } finally {
      await rx.close();
    }
  });

  test('fails without trustedCa: verification is really on', async () => {
    const rx = await startReceiver(() => 200, pems);
    try {
      const { state, errors } = await deliverTo(rx, undefined);
      assert.equal(state, 'failed');
      assert.equal(errors.length, 2, 'a TLS failure is a connection error, so it is retried');
      for (const e of errors) assert.match(e, /certificate|self.signed/i);
      assert.equal(rx.received.length, 0);
    } finally {
      await rx.close();
    }
  });

  test('fails when a different certificate is trusted', async () => {
    const rx = await startReceiver(() => 200, pems);
    try {
      const { state } = await deliverTo(rx, [otherCert]);
      assert.equal(state, 'failed');
      assert.equal(rx.received.length, 0);
    } finally {
      await rx.close();
    }
  });
});
