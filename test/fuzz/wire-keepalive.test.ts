/**
 * The fuzzers' HTTP layer and the keep-alive race: a pooled connection the peer closed while idle
 * resets the next request before any answer. That is the pool's fault, not the peer's answer to
 * the request, so the request goes once more on a fresh connection; a peer that drops the fresh
 * one too has really dropped it (the API input fuzz scores that as a failing case).
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { createClient, type WireRequest } from '../../fuzz/shared/wire.ts';

const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/**
 * A raw HTTP/1.1 peer: `answer(n)` decides, for the n-th request on a connection (from 1),
 * whether to answer 204 and keep the connection, or to reset it without a word.
 */
async function peer(answer: (nth: number) => boolean): Promise<{ url: URL; connections: number }> {
  const state = { url: new URL('http://127.0.0.1/'), connections: 0 };
  const server = createServer((socket: Socket) => {
    state.connections++;
    let nth = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        nth++;
        if (answer(nth)) socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
        else socket.resetAndDestroy();
      }
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  state.url = new URL(`http://127.0.0.1:${port}/hook`);
  return state;
}

const get: WireRequest = {
  method: 'GET',
  headers: [],
  body: new Uint8Array(),
  framing: { kind: 'content-length' },
  notes: [],
};

test('a pooled connection reset before any answer: sent again on a fresh one, answered', async () => {
  // Answers the first request of each connection, resets the second: the stale-socket race.
  const p = await peer((nth) => nth === 1);
  const client = createClient(p.url, 5000);
  try {
    const one = await client.send(get);
    const two = await client.send(get);
    assert.ok('response' in one && one.response.status === 204, JSON.stringify(one));
    assert.ok('response' in two && two.response.status === 204, JSON.stringify(two));
    assert.equal(p.connections, 2, 'the second request went on a fresh connection');
  } finally {
    client.close();
  }
});

test('a peer that resets the fresh connection too has dropped the request: an error', async () => {
  const p = await peer(() => false);
  const client = createClient(p.url, 5000);
  try {
    const one = await client.send(get);
    assert.ok('error' in one, 'no answer at all is an error, never retried into a pass');
    assert.equal(p.connections, 1, 'a first-use connection is not retried');
  } finally {
    client.close();
  }
});
