/**
 * A client still sending a body the service refused by its Content-Length (413) is not cut off:
 * it reads the 413, finishes sending without a reset, and the connection serves its next
 * request. Before, the service closed right after the 413 and the client's writes failed with
 * EPIPE / ECONNRESET — "no answer" to the harness whenever the machine was busy.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { type RunningService, startService } from '../../server/start.ts';

let svc: RunningService;
before(async () => {
  svc = await startService({});
});
after(() => svc.close());

/** Resolves with everything received once `pred` holds over it (or rejects on close/error). */
function readUntil(socket: net.Socket, got: Buffer[], pred: (text: string) => boolean) {
  return new Promise<string>((resolve, reject) => {
    const check = () => {
      const text = Buffer.concat(got).toString('latin1');
      if (pred(text)) {
        socket.off('data', check);
        resolve(text);
      }
    };
    socket.on('data', check);
    socket.once('close', () => reject(new Error(`closed; received: ${Buffer.concat(got)}`)));
    check();
  });
}

test('a 413 answered before the body: the client finishes sending, then reuses the connection', {
  timeout: 30_000,
}, async () => {
  const port = Number(new URL(svc.baseUrl).port);
  const key = svc.credentials.workspaces.growth.keys.full;
  const size = 1024 * 1024 + 1024;
  const socket = net.connect(port, '127.0.0.1');
  const got: Buffer[] = [];
  const errors: string[] = [];
  socket.on('data', (d) => got.push(d));
  socket.on('error', (e) => errors.push(e.message));
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST /v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
  );
  // The answer comes before the body: only then does the client send it, as a slow client would.
  const first = await readUntil(socket, got, (t) => /\r\n\r\n[\s\S]*"status":413/.test(t));
  assert.match(first, /^HTTP\/1\.1 413 /);
  assert.doesNotMatch(first.split('\r\n\r\n')[0]!, /connection: close/i);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < size; sent += chunk.length) {
    socket.write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
    await new Promise((r) => setTimeout(r, 2));
  }
  got.length = 0;
  socket.write(
    `GET /v1/tickets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`,
  );
  const second = await readUntil(socket, got, (t) => /\r\n\r\n[\s\S]*"has_more"/.test(t));
  assert.match(second, /^HTTP\/1\.1 200 /);
  assert.deepEqual(errors, [], 'no reset, no broken pipe');
  socket.destroy();
});
