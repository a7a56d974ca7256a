/**
 * A long-lived reference deployment (server/seed-tickets.ts): thousands of old tickets per
 * workspace, every status, odd content and a few huge fields — deterministic for a seed, valid
 * representations all, listed after a run's own tickets, and quiet (no SLA event fires for them).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { validate } from '../../core/schemas/registry.ts';
import { HUGE_SUBJECT_CHARS, HUGE_TAG_COUNT } from '../../server/seed-tickets.ts';
import { dueForAtRisk } from '../../server/sla.ts';
import { makeService, newTicket } from './harness.ts';

const N = 600;
const svc = makeService({ seedTickets: N, seedTicketsSeed: 7 });
const twin = makeService({ seedTickets: N, seedTicketsSeed: 7 });
const other = makeService({ seedTickets: N, seedTicketsSeed: 8 });
after(() => Promise.all([svc.close(), twin.close(), other.close()]));

type T = {
  id: string;
  subject: string;
  status: string;
  tags: string[];
  created_at: string;
  requester: { name?: string };
};

/** Every ticket the key sees, newest first, by a cursor walk of pages of `limit`. */
async function walk(s: typeof svc, key: string, limit = 100): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const r = await s.call(
      'GET',
      `/v1/tickets?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      key,
    );
    assert.equal(r.status, 200);
    all.push(...r.json.data);
    cursor = r.json.next_cursor;
    if (!cursor) return all;
  }
  throw new Error('the walk did not end');
}

describe('seeded tickets', () => {
  test('every workspace holds N, each listed once, every one a valid Ticket', async () => {
    for (const name of ['team', 'growth', 'enterprise', 'other'] as const) {
      const all = await walk(svc, svc.ws[name].keys.full, 37);
      assert.equal(all.length, N, name);
      assert.equal(new Set(all.map((t) => t.id)).size, N, `${name}: no duplicates`);
      for (const t of all) assert.deepEqual(validate('Ticket', t), [], `${name} ${t.id}`);
    }
  });

  test('every status, created in the past, and odd content of each kind', async () => {
    const all = await walk(svc, svc.ws.team.keys.full);
    assert.deepEqual([...new Set(all.map((t) => t.status))].sort(), [
      'closed',
      'on_hold',
      'open',
      'pending',
    ]);
    const now = svc.clock.source();
    assert.ok(all.every((t) => Date.parse(t.created_at) < now - 30 * 60_000));
    const subjects = all.map((t) => t.subject);
    const has = (re: RegExp) => subjects.some((s) => re.test(s));
    assert.ok(has(/\u0000/), 'NUL');
    assert.ok(has(/\u001b\[31m/), 'terminal escapes');
    assert.ok(has(/\p{Extended_Pictographic}/u), 'emoji');
    assert.ok(has(/[\u0590-\u06ff]/), 'right-to-left script');
    assert.ok(has(/\u202e/), 'a bidi override');
    assert.ok(has(/[\ud800-\udbff](?![\udc00-\udfff])/), 'a lone surrogate');
    assert.ok(has(/<script>/), 'markup');
    assert.ok(
      subjects.some((s) => s.split('\n').length > 10),
      'a pasted log',
    );
    const huge = subjects.filter((s) => s.length === HUGE_SUBJECT_CHARS);
    assert.equal(huge.length, 1, 'one 300 KB subject per thousand tickets (at least one)');
    assert.match(huge[0]!, /^\w+$/, 'one word');
    assert.ok(
      all.some((t) => t.tags.length === HUGE_TAG_COUNT),
      'a 2000-tag list',
    );
    // The oddest among the most recent: a run's first pages after its own tickets meet them.
    const newest = all.slice(0, 25);
    assert.ok(newest.some((t) => t.subject.length === HUGE_SUBJECT_CHARS));
    assert.ok(newest.some((t) => t.tags.length === HUGE_TAG_COUNT));
    assert.ok(newest.some((t) => t.subject.includes('\u0000')));
  });

  test('deterministic: the same seed gives the same tickets, another seed others', async () => {
    const a = await walk(svc, svc.ws.growth.keys.full);
    const b = await walk(twin, twin.ws.growth.keys.full);
    const c = await walk(other, other.ws.growth.keys.full);
    assert.deepEqual(b, a);
    assert.notDeepEqual(
      c.map((t) => t.id),
      a.map((t) => t.id),
    );
  });

  test('a new ticket lists first; filters page through the old ones', async () => {
    const key = svc.ws.enterprise.keys.full;
    const made = await svc.call('POST', '/v1/tickets', key, newTicket());
    const first = await svc.call('GET', '/v1/tickets?limit=1', key);
    assert.equal(first.json.data[0].id, made.json.id);
    const closed = await svc.call('GET', '/v1/tickets?status=closed&priority=high&limit=100', key);
    assert.equal(closed.status, 200);
    assert.ok(closed.json.data.length > 0);
    assert.ok(
      closed.json.data.every(
        (t: T & { priority: string }) => t.status === 'closed' && t.priority === 'high',
      ),
    );
  });

  test('old tickets stay quiet: no sla.at_risk for any of them, however far the clock runs', () => {
    svc.clock.advance(48 * 3_600_000);
    const old = [...svc.ctx.store.tickets.values()].filter(
      (t) => t.createdAtMs < svc.clock.source() - 48 * 3_600_000,
    );
    assert.equal(old.length, 4 * N);
    assert.deepEqual(dueForAtRisk(old, svc.clock.source(), svc.ctx.behaviour.atRiskLeft), []);
  });
});
