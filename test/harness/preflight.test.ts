/**
 * What the preflight takes for a target it cannot test: a body that is not JSON (a web page, a
 * proxy's), never a JSON body under another label (the suite judges that: exchange.json-body) nor
 * a 429 in whatever shape the refusal comes (U16: a plain-text error body is a correct reading).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { preflight } from '../../run/preflight.ts';

const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

/** A target answering every request with `status`, `type` and `body`. */
async function target(status: number, type: string, body: string): Promise<string> {
  const s = createServer((_q, r) => r.writeHead(status, { 'content-type': type }).end(body));
  servers.push(s);
  await new Promise<void>((ready) => s.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

test('a JSON body labelled text/plain is a target the suite can test: the label is its finding', async () => {
  const p = await preflight(await target(200, 'text/plain', '{"data":[]}'), 'k');
  assert.equal(p.state, 'ok');
});

test('a 429 in plain text is the rate limit answering, not a target gone', async () => {
  const p = await preflight(await target(429, 'text/plain', '429 Too Many Requests\n'), 'k');
  assert.deepEqual([p.state, p.detail], ['ok', 'HTTP 429']);
});

test('a page that is not JSON stays unusable, whatever its label', async () => {
  const html = await preflight(await target(200, 'text/html', '<html>nginx</html>'), 'k');
  assert.equal(html.state, 'not-json');
  const labelled = await preflight(await target(200, 'application/json', '<html></html>'), 'k');
  assert.equal(labelled.state, 'not-json');
});
