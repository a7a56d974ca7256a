/** Unit tests of the receiver-fuzz pieces that the zoo run does not pin down on its own. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import { run as fuzz } from '../../fuzz/command.ts';
import { startService } from '../../server/start.ts';
import { plannedRuns, runReceiverFuzz } from '../../fuzz/receiver/run-receiver-fuzz.ts';
import { renderBody, renderTranscript } from '../../fuzz/shared/transcript.ts';
import type { WireRequest } from '../../fuzz/shared/wire.ts';
import { ZOO } from './faulty-receivers.ts';

const secret = 'units-secret-77aa01';

const fuzzCommand = (argv: string[]) =>
  fuzz(argv, { start: startService, exampleReceiver: createReceiver });

describe('transcripts', () => {
  test('bodies render as text, as a JSON string when whitespace matters, else as hex', () => {
    assert.deepEqual(renderBody(new TextEncoder().encode('{"a":1}')), ['{"a":1}']);
    assert.deepEqual(renderBody(new TextEncoder().encode('a\r\n')), [
      '[3 bytes of text, shown as a JSON string]',
      '"a\\r\\n"',
    ]);
    assert.deepEqual(renderBody(Uint8Array.from([0xc3, 0x28])), [
      '[2 bytes, not clean UTF-8, shown as hex]',
      'c328',
    ]);
    assert.deepEqual(renderBody(new Uint8Array(0)), []);
  });

  test('the secret and signature values are redacted wherever they appear', () => {
    const req: WireRequest = {
      method: 'POST',
      headers: [['X-Service-Signature', `sha256=${'ab'.repeat(32)}`]],
      body: new TextEncoder().encode(`{"leak":"${secret}"}`),
      framing: { kind: 'chunked', chunkSizes: [3, 4] },
      notes: ['a note'],
    };
    const text = renderTranscript(
      new URL('http://127.0.0.1:9/hook'),
      req,
      { error: 'socket hang up' },
      ['property: x'],
      [secret],
    );
    assert.ok(!text.includes(secret));
    assert.ok(!text.includes('ab'.repeat(32)));
    assert.match(text, /^> Transfer-Encoding: chunked$/m);
    assert.match(text, /^< \(no response: socket hang up\)$/m);
    assert.match(text, /^# a note$/m);
  });
});

describe('planning and bounds', () => {
  test('a single form runs no both-forms property and each per-form property once', () => {
    const one = plannedRuns(['plain']);
    assert.ok(one.every((r) => r.property.scope !== 'all-forms'));
    const both = plannedRuns(['prefixed', 'plain']);
    assert.ok(both.some((r) => r.property.name === 'conflicting-forms-rejected'));
    assert.equal(both.filter((r) => r.property.name === 'valid-signature-accepted').length, 2);
  });

  test('misuse throws with a clear message', async () => {
    await assert.rejects(runReceiverFuzz({ url: 'not a url', secret }), /not a URL/);
    await assert.rejects(
      runReceiverFuzz({ url: 'http://127.0.0.1:9/', secret, cases: 0 }),
      /cases/,
    );
    await assert.rejects(
      runReceiverFuzz({ url: 'http://127.0.0.1:9/', secret, only: ['nope'] }),
      /unknown receiver property: nope/,
    );
    await assert.rejects(
      runReceiverFuzz({ url: 'http://127.0.0.1:1/', secret }),
      /cannot reach the receiver/,
    );
    await assert.rejects(fuzzCommand(['receiver', '--url', 'http://127.0.0.1:9/']), /--secret-env/);
    await assert.rejects(
      fuzzCommand([
        'receiver',
        '--url',
        'http://127.0.0.1:9/',
        '--secret-env',
        'HARNESS_UNSET_SECRET_FOR_TEST',
      ]),
      /HARNESS_UNSET_SECRET_FOR_TEST is not set/,
    );
    await assert.rejects(fuzzCommand(['bogus']), /unknown fuzz subcommand/);
  });
});

test('--form limits the expectations: a prefixed-only receiver passes when only the prefixed form is asked for', async () => {
  const entry = ZOO.find((z) => z.fault === 'understands only the prefixed form')!;
  const server = entry.create(secret);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const common = { url, secret, cases: 5, rate: Number.POSITIVE_INFINITY, maxSeconds: 10 };
    const prefixed = await runReceiverFuzz({ ...common, form: 'prefixed' });
    assert.equal(prefixed.passed, true);
    const plain = await runReceiverFuzz({
      ...common,
      form: 'plain',
      only: ['valid-signature-accepted'],
    });
    assert.equal(plain.passed, false);
    assert.equal(plain.properties.length, 1);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
