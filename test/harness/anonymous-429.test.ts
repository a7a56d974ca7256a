/**
 * A 429 to a request that names no workspace key (none, an invented key, another scheme) is the
 * deployment's answer, returned to the caller — not "the API key's rate limit is spent": a
 * deployment that answers every unauthenticated request 429 (a limiter in front of
 * authentication) must not end the test as inconclusive, which hid why its authentication cells
 * went unjudged (the matrix now records each as kept by the target: rule-matrix.test.ts, and the
 * run names the rules so kept: rule-coverage.test.ts). Such a request waits out one 429 at most;
 * a keyed request keeps the old rule (wait, retry, and only then give up as inconclusive).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { createClient, namesNoKey } from '../../core/http/client.ts';
import { undiciTransport } from '../../core/http/undici-transport.ts';
import { BOGUS_KEY_PREFIX } from '../../core/redact.ts';
import { type Listening, listenLoopback } from './listen-loopback.ts';

const GOOD = 'stk_full_anonymous_429_test';
let target: Listening;
const seen: Array<string | undefined> = [];

before(async () => {
  target = await listenLoopback(
    createServer((req, res) => {
      req.resume();
      seen.push(req.headers.authorization);
      const limited = req.headers.authorization !== `Bearer ${GOOD}`;
      res.writeHead(limited ? 429 : 200, {
        'content-type': limited ? 'application/problem+json' : 'application/json',
        // Keyed 429s never happen here; unauthenticated ones ask for a short wait.
        'retry-after': '0.05',
      });
      res.end(JSON.stringify(limited ? { title: 'Too Many Requests', status: 429 } : { data: [] }));
    }),
  );
});
after(() => target.close());

function client(spent: string[]) {
  return createClient({
    baseUrl: target.url,
    transport: undiciTransport(),
    key: GOOD,
    onBudgetSpent: (reason) => {
      spent.push(reason);
    },
  });
}

test('a request without a key, with an invented key or another scheme gets its 429 back after one wait', async () => {
  const spent: string[] = [];
  const api = client(spent);
  const sends = [
    { key: null },
    { key: `${BOGUS_KEY_PREFIX}0123456789abcdef` },
    { key: null, headers: { authorization: 'Basic aGFybmVzczpub3Qta2V5' } },
    { key: null, headers: { authorization: 'Bearer' } },
  ];
  for (const s of sends) {
    const before = seen.length;
    const r = await api.send('GET', '/v1/tickets', s);
    assert.equal(r.status, 429, 'the 429 is the answer to judge');
    assert.equal(seen.length - before, 2, 'sent once and retried once, no more');
    assert.equal(r.rateLimitedRetries, 1);
  }
  assert.deepEqual(spent, [], 'no key budget is spent: the test is not made inconclusive');
  const keyed = await api.send('GET', '/v1/tickets');
  assert.equal(keyed.status, 200, 'the key still works for the rest of the test');
  await api.close();
});

test('which Authorization values name no workspace key', () => {
  for (const a of [
    undefined,
    '',
    'Bearer',
    'Bearer   ',
    'Basic abc',
    `Bearer ${BOGUS_KEY_PREFIX}x`,
  ])
    assert.equal(namesNoKey(a), true, String(a));
  for (const a of [`Bearer ${GOOD}`, `bearer ${GOOD}`, 'Bearer stk_read_x'])
    assert.equal(namesNoKey(a), false, a);
});
