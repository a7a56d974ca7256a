/**
 * The run's one capture receiver (contracts/global-setup.ts): it binds HARNESS_WEBHOOK_LISTEN,
 * speaks HTTPS with HARNESS_WEBHOOK_TLS_CERT/_KEY, and every Playwright worker reads it through
 * the loopback control API — raw bytes intact, routed by path — and asks it to answer 503 to a
 * delivery's first attempt. A port already taken is a clear error, not a stack trace.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import globalSetup from '../../contracts/global-setup.ts';
import { generateSelfSignedCert } from '../../core/webhooks/self-signed.ts';
import { WebhookDispatcher } from '../../server/webhooks/dispatcher.ts';
import { freePort } from '../../core/net.ts';
import { CaptureReceiver } from '../../core/webhooks/capture-receiver.ts';
import { remoteView, startControl } from '../../core/webhooks/shared-receiver.ts';
import { readResolved } from '../../core/resolved-config.ts';

const VARS = [
  'HARNESS_WEBHOOK_URL',
  'HARNESS_WEBHOOK_LISTEN',
  'HARNESS_WEBHOOK_TLS_CERT',
  'HARNESS_WEBHOOK_TLS_KEY',
  'HARNESS_RESOLVED_CONFIG',
  'HARNESS_BASE_URL',
];

/** What the global setup handed the workers (the resolved configuration's `shared`). */
const captured = () => readResolved()?.shared?.capture;
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
// The global setup's delivery sweep writes the suite's raw rows; here they go to a directory of
// the test's own, never to reports/playwright/ of the checkout (left there without its marker, it
// made the contract suite that runs next in `npm test` refuse to empty it).
process.env.HARNESS_OUT_DIR = mkdtempSync(join(tmpdir(), 'shared-receiver-out-'));
afterEach(() => {
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** Sends one event the way the reference deployment does (retries 30 ms apart). */
async function deliver(url: string, body: Record<string, unknown>, trustedCa?: string[]) {
  const wh = new WebhookDispatcher({
    retryDelaysMs: [30, 30],
    ...(trustedCa ? { trustedCa } : {}),
  });
  try {
    wh.addEndpoint({
      workspaceId: 'ws',
      url,
      events: ['ticket.created'],
      secret: 's',
      form: 'both',
    });
    wh.emit('ws', 'ticket.created', body);
    await wh.idle(5000);
    return wh.deliveries();
  } finally {
    await wh.close();
  }
}

describe('the shared capture receiver', () => {
  test('binds the fixed listen address behind a public URL with a path; workers see exact bytes by path', async () => {
    const port = await freePort();
    for (const k of VARS) delete process.env[k];
    process.env.HARNESS_WEBHOOK_URL = 'https://tunnel.example/ci-run-7';
    process.env.HARNESS_WEBHOOK_LISTEN = `127.0.0.1:${port}`;
    const teardown = await globalSetup();
    assert.ok(teardown, 'a receiver was started');
    try {
      assert.equal(captured()?.listen, `http://127.0.0.1:${port}`);
      const control = captured()!.control;
      assert.notEqual(new URL(control).port, String(port), 'control API not on the public port');
      // A tunnel that keeps the public path prefix, and one that strips it.
      await deliver(`http://127.0.0.1:${port}/ci-run-7/hook/all`, {
        event: 'ticket.created',
        n: 1.0,
      });
      await deliver(`http://127.0.0.1:${port}/hook/subset`, { event: 'ticket.created', text: 'é' });
      const view = remoteView(control, captured()!.listen);
      const all = await view.all();
      assert.deepEqual(
        all.map((d) => d.path),
        ['/ci-run-7/hook/all', '/hook/subset'],
      );
      assert.equal(all[1]!.raw.toString('utf8'), '{"event":"ticket.created","text":"é"}');
      assert.ok(all.every((d) => d.headers['x-service-signature']?.startsWith('sha256=')));
      // A second worker's view sees the same deliveries; a cached view fetches only new ones.
      assert.equal((await remoteView(control, '').all()).length, 2);
    } finally {
      await teardown!();
    }
  });

  test('a view polled by several waits at once sees every delivery once, later ones included', async () => {
    // The "only chosen events" contract test waits on every endpoint at once through one view:
    // overlapping polls once cached the same rows twice, and the inflated count then skipped
    // the deliveries that came next (a ticket.closed that had arrived read as never sent).
    const rx = new CaptureReceiver();
    const { url, server } = await startControl(rx);
    const row = (n: number) => ({
      receivedAt: n,
      method: 'POST',
      path: `/hook/${n}`,
      headers: {},
      raw: Buffer.from(`{"n":${n}}`),
      answered: 204,
    });
    try {
      const view = remoteView(url, '');
      for (const n of [1, 2, 3]) rx.deliveries.push(row(n));
      await Promise.all([view.all(), view.all(), view.all(), view.all()]);
      for (const n of [4, 5]) rx.deliveries.push(row(n));
      await Promise.all([view.all(), view.all()]);
      const seen = (await view.all()).map((d) => d.path);
      assert.deepEqual(seen, ['/hook/1', '/hook/2', '/hook/3', '/hook/4', '/hook/5']);
    } finally {
      server.close();
    }
  });

  test('answers 503 to the first attempt of a marked delivery for any worker; the retry gets 204', async () => {
    const port = await freePort();
    for (const k of VARS) delete process.env[k];
    process.env.HARNESS_WEBHOOK_URL = `http://127.0.0.1:${port}`;
    process.env.HARNESS_WEBHOOK_LISTEN = `127.0.0.1:${port}`;
    const teardown = await globalSetup();
    try {
      const view = remoteView(captured()!.control, '');
      await view.failFirst({ marker: 'retry-me-42', attempts: 1, status: 503 });
      const sent = await deliver(`http://127.0.0.1:${port}/h`, { subject: 'retry-me-42' });
      await deliver(`http://127.0.0.1:${port}/h`, { subject: 'unmarked' });
      assert.deepEqual(
        sent[0]!.attempts.map((a) => a.status),
        [503, 204],
      );
      const got = await view.all();
      assert.deepEqual(
        got.map((d) => d.answered),
        [503, 204, 204],
      );
      assert.equal(got[0]!.headers['x-service-delivery'], got[1]!.headers['x-service-delivery']);
      const bad = await fetch(`${captured()!.control}/rules`, {
        method: 'POST',
        body: '{}',
      });
      assert.equal(bad.status, 400, 'a rule without a marker is refused');
    } finally {
      await teardown!();
    }
  });

  test('speaks HTTPS with HARNESS_WEBHOOK_TLS_CERT/_KEY', async () => {
    const pems = await generateSelfSignedCert();
    const dir = mkdtempSync(join(tmpdir(), 'harness-rx-tls-'));
    writeFileSync(join(dir, 'cert.pem'), pems.cert);
    writeFileSync(join(dir, 'key.pem'), pems.key, { mode: 0o600 });
    const port = await freePort();
    for (const k of VARS) delete process.env[k];
    process.env.HARNESS_WEBHOOK_URL = `https://127.0.0.1:${port}`;
    process.env.HARNESS_WEBHOOK_LISTEN = `127.0.0.1:${port}`;
    process.env.HARNESS_WEBHOOK_TLS_CERT = join(dir, 'cert.pem');
    process.env.HARNESS_WEBHOOK_TLS_KEY = join(dir, 'key.pem');
    const teardown = await globalSetup();
    try {
      assert.equal(captured()?.listen, `https://127.0.0.1:${port}`);
      const sent = await deliver(`https://127.0.0.1:${port}/tls`, { event: 'ticket.created' }, [
        pems.cert,
      ]);
      assert.equal(sent[0]!.state, 'delivered', JSON.stringify(sent[0]!.attempts));
      const got = await remoteView(captured()!.control, '').all();
      assert.deepEqual(
        got.map((d) => d.path),
        ['/tls'],
      );
    } finally {
      await teardown!();
    }
  });

  test('a listen port already in use is a clear error naming HARNESS_WEBHOOK_LISTEN', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      for (const k of VARS) delete process.env[k];
      process.env.HARNESS_WEBHOOK_URL = 'https://hooks.example';
      process.env.HARNESS_WEBHOOK_LISTEN = `127.0.0.1:${port}`;
      await assert.rejects(
        globalSetup(),
        new RegExp(`cannot listen on HARNESS_WEBHOOK_LISTEN=127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
      );
    } finally {
      await new Promise<void>((r) => busy.close(() => r()));
    }
  });

  test('no public URL: no shared receiver (each worker binds its own random loopback port)', async () => {
    for (const k of VARS) delete process.env[k];
    const teardown = await globalSetup();
    try {
      assert.ok(readResolved(), 'the configuration read once, for the workers');
      assert.equal(captured(), undefined);
    } finally {
      await teardown();
    }
  });
});
