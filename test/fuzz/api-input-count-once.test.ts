/**
 * The creation cases' ticket count, read once after them all (fuzz/api-input/api-input.ts; issue
 * 25): on a correct deployment the fuzz sends what fuzz/fuzz-size.ts plans (one read, not one per
 * case: test/fuzz/fuzz-size.test.ts); a count off at that read replays the cases one by one, each
 * with its own count — a half-created ticket is then the counterexample (api-input-faults.test.ts),
 * while a ticket another client of the workspace created meanwhile, which no case reproduces, fails
 * nothing.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { request } from 'undici';
import { runApiInputFuzz } from '../../fuzz/api-input/api-input.ts';
import { formatApiInputFuzz } from '../../fuzz/api-input/format.ts';
import { fuzzPlan, fuzzSize } from '../../fuzz/fuzz-size.ts';
import { startService } from '../../server/start.ts';

const LIMITS = { ratePerMin: 1_000_000, burst: 1_000_000 };

test('a ticket another client created during the creation cases is replayed away, not failed', async () => {
  const svc = await startService({ enterprise: LIMITS });
  const key = svc.credentials.workspaces.enterprise.keys.full;
  let extra = 0;
  // Forwards everything; on the third creation another client of the workspace creates a ticket.
  let creations = 0;
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    if (req.method === 'POST' && req.url === '/v1/tickets' && ++creations === 3) {
      const other = await request(`${svc.baseUrl}/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'someone else', requester: { email: 'x@example.com' } }),
      });
      await other.body.text();
      if (other.statusCode === 201) extra++;
    }
    const up = await request(`${svc.baseUrl}${req.url}`, {
      method: req.method as 'GET',
      headers: headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? '') });
    res.end(await up.body.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const gate = fuzzSize({}, 'team');
    const r = await runApiInputFuzz({
      baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      apiKey: key,
      numRuns: gate.inputCases,
      maxSeconds: 120,
      operations: ['createTicket'],
    });
    const report = formatApiInputFuzz(r);
    assert.equal(extra, 1, 'the other client created its ticket');
    assert.equal(r.passed, true, report);
    assert.equal(r.operations[0]?.status, 'passed', report);
    // The count was off once: the cases were replayed, each with its read (more than planned).
    const planned = fuzzPlan(
      { ...gate, operations: ['createTicket'] },
      { input: true, delivery: false },
    ).apiInput;
    assert.ok(r.requests > planned + 30, `${r.requests} sent, ${planned} planned without replay`);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await svc.close();
  }
});
