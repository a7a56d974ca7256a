/**
 * What a run leaves on a shared target (core/target/clean-up.ts, core/http/created-ledger.ts) and
 * what it reads of it (core/http/read-tally.ts): every object a creation answered is noted by the
 * one client; the clean-up closes tickets, deletes contacts, leaves rules and says why for
 * everything it could not clean, and closes no ticket the deployment answered closed; list pages are counted with their records and bytes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../../core/http/client.ts';
import {
  closedAlready,
  createdSince,
  LIST_ROW_BYTES,
  ledgerMark,
} from '../../core/http/created-ledger.ts';
import { addReadStats, processReadStats, readText } from '../../core/http/read-tally.ts';
import { undiciTransport } from '../../core/http/undici-transport.ts';
import { cleanUp, discarded, leftLine, leftOnTarget } from '../../core/target/clean-up.ts';
import { freePort } from '../../core/net.ts';
import { processRateStats } from '../../core/http/rate-budget.ts';
import { type RunningService, startService } from '../../server/start.ts';
import { cleanUpSince } from '../../run/clean-up-run.ts';
import { loadConfig } from '../../core/config.ts';

let svc: RunningService;
let key: string;
const api = () =>
  createClient({
    baseUrl: svc.baseUrl,
    transport: undiciTransport(),
    key,
    contentType: 'application/json',
  });
const ticket = { subject: 'clean me', requester: { email: 'ada@example.com' } };
const opts = () => ({ baseUrl: svc.baseUrl, key, timeoutMs: 5000, withinMs: 30_000 });

before(async () => {
  svc = await startService({ seedTickets: 120 });
  key = svc.credentials.workspaces.growth.keys.full;
});
after(() => svc.close());

describe('the ledger of what this process created', () => {
  test('every 2xx creation naming an id, on its target, once; nothing else', async () => {
    const mark = ledgerMark();
    const http = api();
    const t = await http.send('POST', '/v1/tickets', { body: ticket });
    await http.send('POST', '/v1/tickets', { body: { subject: 'no requester' } }); // 422
    const c = await http.send('POST', '/v1/contacts', { body: { email: 'grace@example.com' } });
    await http.send('GET', '/v1/tickets');
    assert.deepEqual(createdSince(mark, svc.baseUrl), [
      { kind: 'ticket', id: (t.json as { id: string }).id },
      { kind: 'contact', id: (c.json as { id: string }).id },
    ]);
    assert.deepEqual(createdSince(mark, 'http://127.0.0.1:1'), [], 'another target: none');
  });
});

describe('a ticket the deployment answered closed', () => {
  test('is not closed again by the clean-up; one a later write reopened is', async () => {
    const mark = ledgerMark();
    const http = api();
    const id = async () =>
      ((await http.send('POST', '/v1/tickets', { body: ticket })).json as { id: string }).id;
    const [closed, reopened, open] = [await id(), await id(), await id()];
    await http.send('POST', `/v1/tickets/${closed}/close`);
    await http.send('POST', `/v1/tickets/${reopened}/close`);
    await http.send('POST', `/v1/tickets/${reopened}/messages`, {
      body: { body: 'back again', author: 'customer' },
    });
    const made = createdSince(mark, svc.baseUrl);
    assert.deepEqual(
      made.map((c) => closedAlready(c, svc.baseUrl)),
      [true, false, false],
    );
    assert.equal(closedAlready(made[0]!, 'http://127.0.0.1:1'), false, 'another target');
    const cfg = { ...loadConfig({}), baseUrl: svc.baseUrl, apiKey: key, timeoutMs: 5000 };
    const before = processRateStats().sent;
    const records = await cleanUpSince(cfg, mark, 'fuzz');
    assert.equal(processRateStats().sent - before, 2, 'a close for each ticket still open');
    assert.deepEqual(
      records.map((r) => [r.id, r.state]),
      [
        [closed, 'cleaned'],
        [reopened, 'cleaned'],
        [open, 'cleaned'],
      ],
    );
    for (const t of [reopened, open])
      assert.equal(
        ((await http.send('GET', `/v1/tickets/${t}`)).json as { status: string }).status,
        'closed',
      );
  });
});

describe('the clean-up', () => {
  test('closes tickets, deletes contacts, leaves rules, and says why for what it could not clean', async () => {
    const mark = ledgerMark();
    const http = api();
    const open = await http.send('POST', '/v1/tickets', { body: ticket });
    const contact = await http.send('POST', '/v1/contacts', { body: { email: 'g@example.com' } });
    const gone = await http.send('POST', '/v1/contacts', { body: { email: 'h@example.com' } });
    await http.send('DELETE', `/v1/contacts/${(gone.json as { id: string }).id}`);
    await http.send('POST', '/v1/rules', {
      body: { name: 'r', event: 'ticket.created', actions: { priority: 'high' } },
    });
    const made = [
      ...createdSince(mark, svc.baseUrl),
      { kind: 'ticket' as const, id: 'tkt_nobody' },
    ];
    const records = await cleanUp(made, opts());
    const state = Object.fromEntries(records.map((r) => [r.id, [r.state, r.why]]));
    const id = (ex: { json: unknown }) => (ex.json as { id: string }).id;
    assert.deepEqual(state[id(open)], ['cleaned', undefined]);
    assert.equal(
      ((await http.send('GET', `/v1/tickets/${id(open)}`)).json as { status: string }).status,
      'closed',
    );
    assert.deepEqual(state[id(contact)], ['cleaned', undefined]);
    assert.equal((await http.send('GET', `/v1/contacts/${id(contact)}`)).status, 404);
    assert.deepEqual(state[id(gone)], ['cleaned', undefined], 'deleted by its test already');
    assert.deepEqual(state.tkt_nobody, ['left', 'closing it answered 404']);
    const rule = records.find((r) => r.kind === 'rule')!;
    assert.deepEqual([rule.state, rule.why], ['left', 'v1 has no way to delete a rule']);

    const l = leftOnTarget(records);
    assert.deepEqual(l.counts.ticket, { created: 2, cleaned: 1, left: 1, discarded: 0 });
    assert.deepEqual(l.counts.contact, { created: 2, cleaned: 2, left: 0, discarded: 0 });
    // The ticket left closed, with its size as the close answered it.
    const closedAnswer = (await http.send('GET', `/v1/tickets/${id(open)}`)).response!.bodyText;
    assert.deepEqual(l.closed, {
      tickets: 1,
      bytes: Buffer.byteLength(closedAnswer),
      list: [{ id: id(open), bytes: Buffer.byteLength(closedAnswer) }],
    });
    assert.equal(
      leftLine(l),
      `left on the target: tickets 2 created, 1 closed (left closed: ${Buffer.byteLength(closedAnswer)} B, the largest ${Buffer.byteLength(closedAnswer)} B), 1 left · contacts 2 created, 2 deleted, 0 left · rules 1 created, 1 left (v1 has no way to delete a rule; closing it answered 404)`,
    );
  });

  test('a ticket larger than a list row should be is cut to a few KB before it is closed, its run tag kept', async () => {
    const lax = await startService({ readings: ['U26=no-limits'] });
    try {
      const laxKey = lax.credentials.workspaces.growth.keys.full;
      const http = createClient({
        baseUrl: lax.baseUrl,
        transport: undiciTransport(),
        key: laxKey,
        contentType: 'application/json',
      });
      const mark = ledgerMark();
      const big = await http.send('POST', '/v1/tickets', {
        body: {
          subject: `[harness run1] ${'a'.repeat(10_000)}`,
          requester: { email: 'ada@example.com' },
          tags: ['harness', 'run-1', ...Array.from({ length: 1000 }, (_, i) => `tag-${i}`)],
        },
      });
      const small = await http.send('POST', '/v1/tickets', { body: ticket });
      assert.ok(Buffer.byteLength(big.response!.bodyText) > 20_000);
      const before = processRateStats().sent;
      const records = await cleanUp(createdSince(mark, lax.baseUrl), {
        baseUrl: lax.baseUrl,
        key: laxKey,
        timeoutMs: 5000,
        withinMs: 30_000,
      });
      assert.equal(processRateStats().sent - before, 3, 'a cut and two closes');
      const now = (await http.send('GET', `/v1/tickets/${(big.json as { id: string }).id}`))
        .json as { subject: string; tags: string[]; status: string };
      assert.equal(now.status, 'closed');
      assert.match(now.subject, /^\[harness run1\] a+…$/);
      assert.deepEqual(now.tags.slice(0, 2), ['harness', 'run-1']);
      assert.ok(now.tags.length <= 10);
      const l = leftOnTarget(records);
      assert.equal(l.closed.tickets, 2);
      assert.ok(
        l.closed.list.every((t) => t.bytes! <= LIST_ROW_BYTES),
        JSON.stringify(l.closed),
      );
      // Each as the deployment answers it now: what a list shows of it.
      for (const t of [big, small]) {
        const tid = (t.json as { id: string }).id;
        const read = await http.send('GET', `/v1/tickets/${tid}`);
        assert.equal(
          l.closed.list.find((x) => x.id === tid)?.bytes,
          Buffer.byteLength(read.response!.bodyText),
        );
      }
      await http.close();
    } finally {
      await lax.close();
    }
  });

  test('a target that stops answering costs one timeout, not one per object', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const t0 = performance.now();
    const records = await cleanUp(
      [
        { kind: 'ticket', id: 'tkt_a' },
        { kind: 'ticket', id: 'tkt_b' },
        { kind: 'contact', id: 'ctc_c' },
      ],
      { baseUrl: dead, key, timeoutMs: 2000, withinMs: 30_000 },
    );
    assert.ok(performance.now() - t0 < 10_000);
    assert.deepEqual(
      records.map((r) => r.state),
      ['left', 'left', 'left'],
    );
    assert.match(records[0]!.why!, /^no answer/);
    assert.match(records[2]!.why!, /^not tried: the target stopped answering/);
  });

  test('on the embedded deployment everything is discarded with it', () => {
    const l = leftOnTarget(
      discarded([
        { kind: 'ticket', id: 'a' },
        { kind: 'ticket', id: 'c' },
        { kind: 'rule', id: 'b' },
      ]),
    );
    assert.equal(
      leftLine(l),
      'created on the embedded deployment, discarded with it: 2 tickets, 1 rule',
    );
    assert.equal(
      leftLine(leftOnTarget([])),
      'left on the target: nothing (the run created nothing)',
    );
  });
});

describe('what this process read', () => {
  test('list pages answered 2xx, with their records and bytes; nothing else', async () => {
    const http = api();
    const before = processReadStats();
    const page = await http.send('GET', '/v1/tickets', { query: { limit: 50 } });
    await http.send('GET', '/v1/contacts');
    await http.send('GET', '/v1/tickets', { query: { limit: 0 } }); // 422: no page
    await http.send(
      'GET',
      `/v1/tickets/${(page.json as { data: Array<{ id: string }> }).data[0]!.id}`,
    );
    const read = addReadStats(processReadStats(), before, -1);
    assert.equal(read.pages, 2);
    assert.equal(read.tickets, 50);
    assert.equal(
      read.records,
      50 + ((await http.send('GET', '/v1/contacts')).json as { data: unknown[] }).data.length,
    );
    assert.ok(read.bytes >= Buffer.byteLength(page.response!.bodyText));
    assert.match(readText(read), /^50 tickets(?: and \d+ other records)? on 2 list pages \(\d/);
  });
});
