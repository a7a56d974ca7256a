/**
 * The creation cases' ticket count, read once after them all (fuzz/api-input/api-input.ts; issue
 * 25): on a correct deployment the fuzz sends what fuzz/fuzz-size.ts plans (one read, not one per
 * case: test/fuzz/fuzz-size.test.ts); a count off at that read replays the cases one by one, each
 * with its own count — a half-created ticket is then the counterexample (api-input-faults.test.ts),
 * while a ticket another client of the workspace created meanwhile, which no case reproduces, fails
 * nothing. At the gate size the same holds for the shared ticket of the update and message cases:
 * refused writes are read after once, and replayed one by one when the ticket changed.
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
import { forwardBuffered } from '../harness/forward-buffered.ts';
import { startRejectAfterWorkProxy } from '../harness/reject-after-work.ts';

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
    if (req.method === 'POST' && req.url === '/v1/tickets' && ++creations === 3) {
      const other = await request(`${svc.baseUrl}/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'someone else', requester: { email: 'x@example.com' } }),
      });
      await other.body.text();
      if (other.statusCode === 201) extra++;
    }
    const up = await forwardBuffered(svc.baseUrl, req, chunks);
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

test('gate-sized: refused writes that changed the shared ticket are read once, replayed one by one, and the input that did it is named', async () => {
  const svc = await startService({ enterprise: LIMITS });
  const key = svc.credentials.workspaces.enterprise.keys.full;
  // Every write reaches the deployment and is answered 422 (the target's own creation aside):
  // each refused write changed the ticket.
  const proxy = await startRejectAfterWorkProxy(svc.baseUrl);
  try {
    const r = await runApiInputFuzz({
      baseUrl: proxy.url,
      apiKey: key,
      numRuns: 1,
      maxSeconds: 120,
      operations: ['updateTicket', 'addMessage'],
      packed: true,
    });
    const report = formatApiInputFuzz(r);
    assert.equal(r.passed, false, report);
    for (const o of r.operations) {
      assert.equal(o.status, 'failed', report);
      assert.equal(o.broken?.check, 'fuzz.api-input-nothing-half-done', report);
      assert.match(o.reason ?? '', /the ticket changed/, report);
      // Split down to one input of the packed case: the report names it.
      assert.match(o.counterexample?.note ?? '', /^class sampler: /, report);
      assert.match(o.counterexample?.transcript ?? '', /^< HTTP\/1\.1 422$/m, report);
    }
  } finally {
    await proxy.close();
    await svc.close();
  }
});
