/**
 * webhook.signature-valid says what the sender got wrong (the same diagnosis as the delivery
 * fuzz), so a failing gate on staging reads "uppercase hex", not only "does not verify".
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signatureValid } from '../../core/checks/catalogue/webhooks.ts';
import type { Exchange } from '../../core/checks/types.ts';

const secret = 'whsec_check_6e1d';
const raw = Buffer.from('{"event":"ticket.created","ticket":{"id":"t1","n":1.0}}');
const hex = (bytes: Buffer | string, key = secret) =>
  createHmac('sha256', key).update(bytes).digest('hex');

function delivery(headers: Record<string, string>): Exchange {
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:9/hook', headers, body: raw.toString() },
    response: { status: 204, headers: {}, bodyText: '' },
    durationMs: 0,
  };
}

const run = (headers: Record<string, string>) =>
  signatureValid.run(delivery(headers), { raw, secret });

test('a documented signature passes in either form and in both', () => {
  assert.equal(run({ 'x-service-signature': `sha256=${hex(raw)}` }), undefined);
  assert.equal(run({ 'service-signature': hex(raw) }), undefined);
  assert.equal(
    run({ 'x-service-signature': `sha256=${hex(raw)}`, 'service-signature': hex(raw) }),
    undefined,
  );
});

test('each sender mistake is named in Received', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ 'service-signature': hex(raw).toUpperCase() }, /service-signature .*: uppercase hex/],
    [{ 'x-service-signature': hex(raw) }, /X-Service-Signature .*: the sha256= prefix is missing/],
    [
      { 'x-service-signature': `sha256=${hex(JSON.stringify(JSON.parse(raw.toString())))}` },
      /re-serialisation of the JSON/,
    ],
    [{ 'service-signature': hex(raw, 'another') }, /a wrong secret, or other bytes signed/],
    [{}, /^no signature header$/],
  ];
  for (const [headers, expected] of cases) {
    const v = run(headers);
    assert.ok(v, `must fail: ${JSON.stringify(headers)}`);
    assert.match(v.received, expected);
  }
});
