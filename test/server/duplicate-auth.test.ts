import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startService } from '../../server/start.ts';

/** Sends raw bytes (two Authorization headers cannot be expressed with fetch) and returns the status line. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1', () => sock.end(text));
    let out = '';
    sock.on('data', (d) => {
      out += d.toString('latin1');
    });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

test('two Authorization headers authenticate as nobody: 401, even when both keys are valid', async () => {
  const svc = await startService();
  try {
    const port = Number(new URL(svc.baseUrl).port);
    const w = svc.credentials.workspaces;
    const one = await raw(
      port,
      `GET /v1/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.team.keys.full}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(one, /^HTTP\/1\.1 200/, 'one key works');
    const two = await raw(
      port,
      `GET /v1/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.team.keys.full}\r\nAuthorization: Bearer ${w.other.keys.full}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(two, /^HTTP\/1\.1 401/, 'two keys are refused');
    assert.match(two, /application\/problem\+json/i, 'with a problem body');
    assert.match(two, /x-ratelimit-limit/i, 'and the rate-limit headers');
  } finally {
    await svc.close();
  }
});
