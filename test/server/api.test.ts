import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { validate } from '../../core/schemas/registry.ts';
import { loadSpec } from '../../core/spec/load-spec.ts';
import { makeService, newTicket } from './harness.ts';

const svc = makeService();
after(() => svc.close());
const { call, ws } = svc;
const full = ws.team.keys.full;
const read = ws.team.keys.readOnly;

function assertProblem(
  r: { status: number; headers: Record<string, unknown>; json: unknown },
  status: number,
) {
  assert.equal(r.status, status);
  assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
  assert.deepEqual(validate('Problem', r.json), [], JSON.stringify(r.json));
  assert.equal((r.json as { status: number }).status, status);
}

describe('tickets', () => {
  test('create → 201, status open, Location, SLA from priority, valid Ticket', async () => {
    const r = await call(
      'POST',
      '/v1/tickets',
      full,
      newTicket({ priority: 'high', tags: ['a', 'a', 'b'] }),
    );
    assert.equal(r.status, 201);
    assert.deepEqual(validate('Ticket', r.json), []);
    assert.equal(r.json.status, 'open');
    assert.equal(r.json.priority, 'high');
    assert.deepEqual(r.json.requester, { email: 'ada@example.com', name: 'Ada Lovelace' });
    assert.deepEqual(r.json.tags, ['a', 'b']);
    assert.equal(r.headers.location, `/v1/tickets/${r.json.id}`);
    const due = Date.parse(r.json.sla.first_response_due) - Date.parse(r.json.created_at);
    assert.equal(due, 3_600_000);
  });

  test('default priority is normal (U2) with a 4 h target; low is 24 h', async () => {
    const n = await call('POST', '/v1/tickets', full, newTicket());
    assert.equal(n.json.priority, 'normal');
    assert.equal(
      Date.parse(n.json.sla.first_response_due) - Date.parse(n.json.created_at),
      4 * 3_600_000,
    );
    const l = await call('POST', '/v1/tickets', full, newTicket({ priority: 'low' }));
    assert.equal(
      Date.parse(l.json.sla.first_response_due) - Date.parse(l.json.created_at),
      24 * 3_600_000,
    );
  });

  test('email-only requester is accepted, name-only is 422 (U3)', async () => {
    assert.equal(
      (await call('POST', '/v1/tickets', full, { subject: 's', requester: { email: 'e@x.io' } }))
        .status,
      201,
    );
    const r = await call('POST', '/v1/tickets', full, { subject: 's', requester: { name: 'N' } });
    assertProblem(r, 422);
    assert.deepEqual(
      r.json.errors.map((e: { field: string }) => e.field),
      ['requester.email'],
    );
  });

  test('get, update (merge patch), close (idempotent), messages', async () => {
    const c = await call('POST', '/v1/tickets', full, newTicket({ priority: 'low' }));
    const id = c.json.id;
    const g = await call('GET', `/v1/tickets/${id}`, full);
    assert.equal(g.status, 200);
    assert.equal(g.json.id, id);
    const p = await call(
      'PATCH',
      `/v1/tickets/${id}`,
      full,
      { priority: 'high', subject: 'New' },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    assert.equal(p.status, 200);
    assert.equal(p.json.subject, 'New');
    assert.equal(
      Date.parse(p.json.sla.first_response_due) - Date.parse(p.json.created_at),
      3_600_000,
    );
    const m = await call('POST', `/v1/tickets/${id}/messages`, full, {
      body: '<b>hi</b>',
      author: 'agent',
    });
    assert.equal(m.status, 201);
    assert.deepEqual(validate('Message', m.json), []);
    const note = await call('POST', `/v1/tickets/${id}/messages`, full, {
      body: 'x',
      author: 'customer',
      internal: true,
    });
    assertProblem(note, 422);
    const x1 = await call('POST', `/v1/tickets/${id}/close`, full);
    const x2 = await call('POST', `/v1/tickets/${id}/close`, full);
    assert.equal(x1.status, 200);
    assert.equal(x1.json.status, 'closed');
    assert.deepEqual(x2.json, x1.json);
  });

  test('customer reply re-opens a pending ticket (U1)', async () => {
    const c = await call('POST', '/v1/tickets', full, newTicket());
    await call('PATCH', `/v1/tickets/${c.json.id}`, full, { status: 'pending' });
    await call('POST', `/v1/tickets/${c.json.id}/messages`, full, {
      body: 'any news?',
      author: 'customer',
    });
    assert.equal((await call('GET', `/v1/tickets/${c.json.id}`, full)).json.status, 'open');
  });

  test('list: envelope, filters, full pagination walk without duplicates or gaps, Link', async () => {
    const key = ws.growth.keys.full;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        (await call('POST', '/v1/tickets', key, newTicket({ priority: i % 2 ? 'high' : 'low' })))
          .json.id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call('GET', `/v1/tickets?limit=3${cursor ? `&cursor=${cursor}` : ''}`, key);
      assert.equal(r.status, 200);
      assert.deepEqual(validate('TicketList', r.json), []);
      seen.push(...r.json.data.map((t: { id: string }) => t.id));
      if (r.json.has_more) assert.match(String(r.headers.link), /rel="next"/);
      cursor = r.json.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.deepEqual([...seen].sort(), [...made].sort());
    assert.equal(new Set(seen).size, seen.length);
    const high = await call('GET', '/v1/tickets?priority=high&limit=100', key);
    assert.equal(high.json.data.length, 3);
    assert.ok(high.json.data.every((t: { priority: string }) => t.priority === 'high'));
  });

  test('list query errors are 422: limit 0, 101, abc; unknown status; foreign cursor', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'status=new', 'cursor=zzz']) {
      assertProblem(await call('GET', `/v1/tickets?${q}`, full), 422);
    }
  });
});

describe('errors are problem+json with the assumed statuses', () => {
  test('malformed JSON 400, wrong types / enum / missing 422, >1 MiB 413, text/plain 415', async () => {
    assertProblem(await call('POST', '/v1/tickets', full, '{"subject":'), 400);
    assertProblem(await call('POST', '/v1/tickets', full, { subject: 5, requester: {} }), 422);
    assertProblem(await call('POST', '/v1/tickets', full, newTicket({ priority: 'urgent' })), 422);
    assertProblem(await call('POST', '/v1/tickets', full, { requester: { email: 'a@b.co' } }), 422);
    assertProblem(
      await call('POST', '/v1/tickets', full, newTicket({ subject: 'x'.repeat(256) })),
      422,
    );
    assertProblem(
      await call('POST', '/v1/tickets', full, newTicket({ message: 'x'.repeat(1024 * 1024) })),
      413,
    );
    assertProblem(
      await call('POST', '/v1/tickets', full, 'hello', { 'content-type': 'text/plain' }),
      415,
    );
    assertProblem(await call('POST', '/v1/tickets', full, ''), 400);
    assertProblem(await call('POST', '/v1/tickets', full, 'null'), 422);
  });

  test('unknown ticket 404; unknown route 404 (with and without a key)', async () => {
    assertProblem(await call('GET', '/v1/tickets/tkt_nope', full), 404);
    assertProblem(await call('GET', '/v1/nothing', full), 404);
    assertProblem(await call('GET', '/nothing'), 404);
  });

  test('missing key and invalid key → 401 + WWW-Authenticate: Bearer', async () => {
    for (const key of [undefined, 'stk_full_nope', '']) {
      const r = await call('GET', '/v1/tickets', key);
      assertProblem(r, 401);
      assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    }
  });
});

describe('scopes: read-only key', () => {
  const spec = loadSpec();
  const writes: Array<{ method: string; path: string }> = [];
  const reads: Array<{ method: string; path: string }> = [];
  for (const [path, item] of Object.entries(
    spec.paths as Record<string, Record<string, { 'x-scope'?: string }>>,
  )) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'patch', 'delete'].includes(method)) continue;
      (op['x-scope'] === 'write' ? writes : reads).push({ method: method.toUpperCase(), path });
    }
  }

  test('the spec marks every operation with x-scope', () => {
    assert.ok(
      writes.length >= 8 && reads.length >= 7,
      `${writes.length} writes, ${reads.length} reads`,
    );
  });

  test('403 insufficient_scope on every write operation of the spec', async () => {
    const t = await call('POST', '/v1/tickets', full, newTicket());
    for (const { method, path } of writes) {
      const url = path
        .replace('{ticket_id}', t.json.id)
        .replace('{contact_id}', 'ctc_x')
        .replace('{macro_id}', 'mac_x');
      const r = await call(method as 'POST', url, read, method === 'DELETE' ? undefined : {});
      assertProblem(r, 403);
      assert.equal(r.json.code, 'insufficient_scope', `${method} ${path}`);
    }
  });

  test('2xx on every read operation of the spec', async () => {
    const t = await call('POST', '/v1/tickets', full, newTicket());
    const c = await call('POST', '/v1/contacts', full, { email: 'c@x.io' });
    for (const { method, path } of reads) {
      const url = path.replace('{ticket_id}', t.json.id).replace('{contact_id}', c.json.id);
      const r = await call(method as 'GET', url, read);
      assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
    }
  });
});

describe('isolation', () => {
  test("another workspace's ticket answers exactly like an unknown one", async () => {
    const t = await call('POST', '/v1/tickets', full, newTicket());
    const other = ws.other.keys.full;
    const foreign = await call('GET', `/v1/tickets/${t.json.id}`, other);
    const unknown = await call('GET', '/v1/tickets/tkt_doesnotexist', other);
    assert.equal(foreign.status, 404);
    const strip = (j: Record<string, unknown>) => ({ ...j, request_id: undefined });
    assert.deepEqual(strip(foreign.json), strip(unknown.json));
    for (const op of [
      () => call('PATCH', `/v1/tickets/${t.json.id}`, other, { subject: 'x' }),
      () => call('POST', `/v1/tickets/${t.json.id}/close`, other),
      () =>
        call('POST', `/v1/tickets/${t.json.id}/messages`, other, { body: 'x', author: 'agent' }),
    ]) {
      assert.equal((await op()).status, 404);
    }
    const list = await call('GET', '/v1/tickets?limit=100', other);
    assert.ok(!list.json.data.some((x: { id: string }) => x.id === t.json.id));
  });
});

describe('keys', () => {
  test('rotation issues a new key; the old one gets 401', async () => {
    const svc2 = makeService();
    try {
      const old = svc2.ws.team.keys.full;
      const r = await svc2.admin('POST', `/admin/keys/${svc2.ws.team.keyIds.full}/rotate`);
      assert.equal(r.status, 200);
      assert.notEqual(r.json.key, old);
      assert.equal((await svc2.call('GET', '/v1/tickets', old)).status, 401);
      assert.equal((await svc2.call('GET', '/v1/tickets', r.json.key)).status, 200);
    } finally {
      await svc2.close();
    }
  });

  test('the admin surface needs its token', async () => {
    assert.equal((await call('GET', '/admin/workspaces')).status, 401);
    assert.equal(
      (await call('GET', '/admin/workspaces', undefined, undefined, { 'x-admin-token': 'no' }))
        .status,
      401,
    );
  });
});

describe('contacts, macros, rules, reports (U10)', () => {
  test('contacts CRUD', async () => {
    const c = await call('POST', '/v1/contacts', full, {
      email: 'grace@example.com',
      name: 'Grace',
    });
    assert.equal(c.status, 201);
    assert.deepEqual(validate('Contact', c.json), []);
    assert.equal((await call('GET', `/v1/contacts/${c.json.id}`, full)).json.name, 'Grace');
    assert.equal(
      (await call('PATCH', `/v1/contacts/${c.json.id}`, full, { name: 'G' })).json.name,
      'G',
    );
    assert.deepEqual(validate('ContactList', (await call('GET', '/v1/contacts', full)).json), []);
    assert.equal((await call('DELETE', `/v1/contacts/${c.json.id}`, full)).status, 204);
    assert.equal((await call('GET', `/v1/contacts/${c.json.id}`, full)).status, 404);
    assert.equal((await call('GET', `/v1/contacts/${c.json.id}`, ws.other.keys.full)).status, 404);
  });

  test('macros list and apply; rules create and act on ticket.created; report summary', async () => {
    const macros = await call('GET', '/v1/macros', full);
    assert.deepEqual(validate('MacroList', macros.json), []);
    const escalate = macros.json.data.find((m: { name: string }) => m.name === 'Escalate');
    const t = await call('POST', '/v1/tickets', full, newTicket({ priority: 'low' }));
    const applied = await call('POST', `/v1/macros/${escalate.id}/apply`, full, {
      ticket_id: t.json.id,
    });
    assert.equal(applied.status, 200);
    assert.equal(applied.json.priority, 'high');
    assert.ok(applied.json.tags.includes('escalated'));
    assert.equal(
      (await call('POST', '/v1/macros/mac_nope/apply', full, { ticket_id: t.json.id })).status,
      404,
    );

    const rule = await call('POST', '/v1/rules', full, {
      name: 'VIP',
      event: 'ticket.created',
      conditions: { tag: 'vip' },
      actions: { priority: 'high' },
    });
    assert.equal(rule.status, 201);
    assert.deepEqual(validate('Rule', rule.json), []);
    const vip = await call(
      'POST',
      '/v1/tickets',
      full,
      newTicket({ tags: ['vip'], priority: 'low' }),
    );
    assert.equal((await call('GET', `/v1/tickets/${vip.json.id}`, full)).json.priority, 'high');
    assert.deepEqual(validate('RuleList', (await call('GET', '/v1/rules', full)).json), []);

    const rep = await call('GET', '/v1/reports/summary', full);
    assert.deepEqual(validate('ReportSummary', rep.json), []);
    assert.ok(rep.json.tickets.total >= 2);
  });
});

describe('headers on every response', () => {
  test('X-RateLimit-* on 2xx, 4xx of every kind; Reset is epoch seconds; Date from the service clock', async () => {
    const responses = [
      await call('GET', '/v1/tickets', full),
      await call('POST', '/v1/tickets', full, newTicket()),
      await call('GET', '/v1/tickets'),
      await call('GET', '/v1/tickets', 'bogus-key-123'),
      await call('POST', '/v1/tickets', read, newTicket()),
      await call('GET', '/v1/tickets/nope', full),
      await call('POST', '/v1/tickets', full, '{'),
      await call('POST', '/v1/tickets', full, {}),
      await call('GET', '/elsewhere'),
    ];
    for (const r of responses) {
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        assert.match(String(r.headers[h]), /^\d+$/, `${h} on ${r.status}`);
      }
      const reset = Number(r.headers['x-ratelimit-reset']);
      const date = Date.parse(String(r.headers.date)) / 1000;
      assert.ok(reset >= date - 1 && reset < date + 3600, `Reset ${reset} vs Date ${date}`);
    }
  });
});
