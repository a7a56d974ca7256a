/**
 * Tests of the example receiver; like the receiver, only `node:` modules so the pair can be copied.
 * Run: node --import tsx --test examples/receiver/receiver.test.ts
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createReceiver, isAuthentic, type ReceiverOptions } from './receiver.ts';

const secret = 'example-secret-for-tests';
const hmac = (body: Uint8Array, key = secret) =>
  createHmac('sha256', key).update(body).digest('hex');

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends raw header lines (duplicates allowed) and the body in `chunks` (chunked when > 1). */
function send(
  port: number,
  headers: Array<[string, string]>,
  body: Uint8Array,
  opts: { method?: string; chunks?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // Raw header arrays switch off Node's defaults, Host included.
    const flat = ['Host', `127.0.0.1:${port}`, ...headers.flat()];
    const chunked = (opts.chunks ?? 1) > 1;
    if (!chunked) flat.push('Content-Length', String(body.length));
    const req = request({
      host: '127.0.0.1',
      port,
      method: opts.method ?? 'POST',
      path: '/hook',
      headers: flat,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
      );
    });
    const n = Math.max(1, opts.chunks ?? 1);
    const size = Math.ceil(body.length / n) || 1;
    for (let i = 0; i < body.length; i += size) req.write(body.subarray(i, i + size));
    req.end();
  });
}

function withReceiver(options: Omit<ReceiverOptions, 'secret'> = {}) {
  const delivered: Buffer[] = [];
  const server = createReceiver({ secret, onDelivery: (b) => void delivered.push(b), ...options });
  const ctx = { port: 0, delivered };
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    ctx.port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  return ctx;
}

function assertRejected(reply: Reply) {
  assert.equal(reply.status, 401);
  assert.equal(reply.body.length, 0);
  assert.equal(reply.headers['content-length'], '0');
}

const json = new TextEncoder().encode('{"event":"ticket.created","ticket":{"id":"t_1"}}');

describe('example receiver (both forms)', () => {
  const ctx = withReceiver();

  test('a valid prefixed signature is accepted and the exact bytes are delivered', async () => {
    const reply = await send(ctx.port, [['X-Service-Signature', `sha256=${hmac(json)}`]], json);
    assert.equal(reply.status, 204);
    assert.deepEqual(ctx.delivered.at(-1), Buffer.from(json));
  });

  test('a valid plain signature is accepted', async () => {
    const reply = await send(ctx.port, [['service-signature', hmac(json)]], json);
    assert.equal(reply.status, 204);
  });

  test('both valid headers are accepted; one contradicting header is rejected', async () => {
    const ok = await send(
      ctx.port,
      [
        ['X-Service-Signature', `sha256=${hmac(json)}`],
        ['service-signature', hmac(json)],
      ],
      json,
    );
    assert.equal(ok.status, 204);
    assertRejected(
      await send(
        ctx.port,
        [
          ['X-Service-Signature', `sha256=${hmac(json)}`],
          ['service-signature', '0'.repeat(64)],
        ],
        json,
      ),
    );
  });

  test('bad, non-canonical and missing signatures get 401 with an empty body', async () => {
    const hex = hmac(json);
    const bad: Array<Array<[string, string]>> = [
      [['X-Service-Signature', `sha256=${hex.toUpperCase()}`]],
      [['X-Service-Signature', hex]],
      [['service-signature', `sha256=${hex}`]],
      [['X-Service-Signature', `sha1=${createHmac('sha1', secret).update(json).digest('hex')}`]],
      [['X-Service-Signature', `sha256=${hex.slice(0, 32)}`]],
      [['service-signature', `${hex}00`]],
      [['service-signature', hmac(json, 'another-secret')]],
      [
        ['service-signature', hex],
        ['service-signature', '1'.repeat(64)],
      ],
      [],
    ];
    for (const headers of bad) assertRejected(await send(ctx.port, headers, json));
  });

  test('non-JSON and invalid UTF-8 bodies authenticate over their raw bytes, chunked too', async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0xff, 0x00, 0x0d, 0x0a, 0xc3, 0x28]);
    const reply = await send(
      ctx.port,
      [
        ['service-signature', hmac(bytes)],
        ['Content-Type', 'text/plain'],
      ],
      bytes,
      { chunks: 3 },
    );
    assert.equal(reply.status, 204);
    assert.deepEqual(ctx.delivered.at(-1), Buffer.from(bytes));
  });

  test('header names are case-insensitive', async () => {
    const reply = await send(ctx.port, [['X-SERVICE-SIGNATURE', `sha256=${hmac(json)}`]], json);
    assert.equal(reply.status, 204);
  });

  test('anything but POST → 405', async () => {
    const reply = await send(ctx.port, [], new Uint8Array(), { method: 'GET' });
    assert.equal(reply.status, 405);
  });
});

describe('example receiver (configured: plain only, 1 KiB bodies)', () => {
  const ctx = withReceiver({ forms: ['plain'], maxBodyBytes: 1024 });

  test('the prefixed form alone does not authenticate', async () => {
    assertRejected(await send(ctx.port, [['X-Service-Signature', `sha256=${hmac(json)}`]], json));
    assert.equal((await send(ctx.port, [['service-signature', hmac(json)]], json)).status, 204);
  });

  test('a body over the limit → 413', async () => {
    const big = new Uint8Array(2048);
    const reply = await send(ctx.port, [['service-signature', hmac(big)]], big);
    assert.equal(reply.status, 413);
  });
});

test('isAuthentic rejects a header array and a missing header without throwing', () => {
  const body = Buffer.from(json);
  assert.equal(isAuthentic(secret, body, { 'service-signature': [hmac(json)] }), false);
  assert.equal(isAuthentic(secret, body, {}), false);
  assert.equal(isAuthentic(secret, body, { 'service-signature': hmac(json) }), true);
});
