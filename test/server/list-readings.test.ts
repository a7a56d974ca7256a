/**
 * The ticket list's readings (server/readings/lists.ts): what each answers, and that the
 * harness's bounded walk (contracts/ticket-walk.ts) reads every one of them — whatever the
 * envelope, order and paging, it visits each ticket once and knows where the list ends when the
 * answers show it, never by an assumed `has_more` alone.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { walkTickets } from '../../contracts/ticket-walk.ts';
import { listNext } from '../../core/http/list-page.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { makeService, newTicket } from './harness.ts';

const services: Array<ReturnType<typeof makeService>> = [];
after(() => Promise.all(services.map((s) => s.close())));

/** A deployment with `readings` and `n` tickets in the Team workspace (every third low priority). */
async function served(readings: string[], n = 7) {
  const s = makeService({ readings });
  services.push(s);
  const key = s.ws.team.keys.full;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    s.clock.advance(1000);
    const r = await s.call(
      'POST',
      '/v1/tickets',
      key,
      newTicket({ priority: i % 3 ? 'high' : 'low' }),
    );
    ids.push(r.json.id);
  }
  const send = async (query: Record<string, string | number | undefined>): Promise<Exchange> => {
    const q = Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]));
    const r = await s.call('GET', `/v1/tickets?${new URLSearchParams(q)}`, key);
    return {
      request: { method: 'GET', url: `/v1/tickets?${new URLSearchParams(q)}`, headers: {} },
      response: {
        status: r.status,
        headers: Object.fromEntries(
          Object.entries(r.headers).map(([k, v]) => [k, String(v)]),
        ) as Record<string, string>,
        json: r.json,
        bodyText: r.text,
      },
    } as unknown as Exchange;
  };
  return { s, key, ids, send };
}

describe('list readings: what the deployment answers', () => {
  test('our assumption: {data, has_more, next_cursor}, newest first, Link rel="next"', async () => {
    const { send, ids } = await served([]);
    const ex = await send({ limit: 2 });
    const j = ex.response!.json as { data: Array<{ id: string }>; has_more: boolean };
    assert.deepEqual(Object.keys(j).sort(), ['data', 'has_more', 'next_cursor']);
    assert.deepEqual(
      j.data.map((t) => t.id),
      ids.slice(-2).reverse(),
    );
    assert.match(ex.response!.headers.link!, /rel="next"/);
  });

  test('U4=unpaginated: every ticket in one {data}; limit and cursor ignored, never refused', async () => {
    const { send, ids } = await served(['U4=unpaginated']);
    for (const query of [{ limit: 2 }, { limit: 0 }, { limit: 'many' }, { cursor: 'nope' }]) {
      const ex = await send(query);
      assert.equal(ex.response!.status, 200, JSON.stringify(query));
      const j = ex.response!.json as { data: Array<{ id: string }> };
      assert.deepEqual(Object.keys(j), ['data']);
      assert.equal(j.data.length, ids.length);
      assert.equal(ex.response!.headers.link, undefined);
    }
  });

  test('U4=oldest-first: the first page holds the oldest', async () => {
    const { send, ids } = await served(['U4=oldest-first']);
    const j = (await send({ limit: 3 })).response!.json as { data: Array<{ id: string }> };
    assert.deepEqual(
      j.data.map((t) => t.id),
      ids.slice(0, 3),
    );
  });

  test('U4=bare-array and U4=items-next: the tickets, the next page by its address only', async () => {
    const bare = await (await served(['U4=bare-array'])).send({ limit: 2 });
    assert.ok(Array.isArray(bare.response!.json));
    assert.match(
      bare.response!.headers.link!,
      /^<\/v1\/tickets\?limit=2&cursor=[^>]+>; rel="next"$/,
    );
    const items = (await (await served(['U4=items-next'])).send({ limit: 2 })).response!.json as {
      items: unknown[];
      next: string;
    };
    assert.deepEqual(Object.keys(items).sort(), ['items', 'next']);
    assert.match(items.next, /^\/v1\/tickets\?limit=2&cursor=/);
  });

  test('U4=no-filters and U4=no-priority-filter: an unknown filter is ignored, whatever its value', async () => {
    const none = await served(['U4=no-filters']);
    for (const query of [{ priority: 'low' }, { status: 'bogus' }, { priority: 'urgent' }]) {
      const j = (await none.send({ ...query, limit: 100 })).response!.json as { data: unknown[] };
      assert.equal(j.data.length, none.ids.length, JSON.stringify(query));
    }
    const status = await served(['U4=no-priority-filter']);
    const j = (await status.send({ priority: 'low', limit: 100 })).response!.json as {
      data: unknown[];
    };
    assert.equal(j.data.length, status.ids.length);
    assert.equal((await status.send({ status: 'bogus' })).response!.status, 422);
    const closed = (await status.send({ status: 'closed' })).response!.json as { data: unknown[] };
    assert.equal(closed.data.length, 0);
  });

  test('U26=page-max-50: 50 is the largest page, 51 refused', async () => {
    const { send } = await served(['U26=page-max-50']);
    assert.equal((await send({ limit: 50 })).response!.status, 200);
    assert.equal((await send({ limit: 51 })).response!.status, 422);
  });
});

describe('the harness walks every reading of the list', () => {
  for (const readings of [
    [],
    ['U4=oldest-first'],
    ['U4=bare-array'],
    ['U4=items-next'],
    ['U4=bare-array', 'U4=oldest-first'],
  ]) {
    test(`${readings.join(' + ') || 'our assumption'}: every ticket once, the end known`, async () => {
      const { send, ids } = await served(readings);
      const w = await walkTickets(send, { limit: 2, maxPages: 20 });
      assert.equal(w.stoppedBy, 'end');
      assert.ok(w.endKnown);
      assert.equal(w.pages, Math.ceil(ids.length / 2));
      assert.deepEqual([...w.seen].sort(), [...ids].sort());
      assert.equal(new Set(w.seen).size, w.seen.length);
    });
  }

  test('U4=unpaginated: one page, larger than the limit — the whole list, its end known', async () => {
    const { send, ids } = await served(['U4=unpaginated']);
    const w = await walkTickets(send, { limit: 2, maxPages: 20 });
    assert.deepEqual([w.pages, w.oversized, w.stoppedBy, w.endKnown], [1, 1, 'end', true]);
    assert.equal(w.seen.length, ids.length);
  });

  test('a full page that names no next page and does not say it is the last: the end not known', async () => {
    const { send } = await served(['U4=unpaginated'], 4);
    const w = await walkTickets(send, { limit: 4, maxPages: 20 });
    assert.deepEqual([w.pages, w.stoppedBy, w.endKnown], [1, 'end', false]);
  });

  test('listNext: the cursor of the envelope, else a next address or the Link header', () => {
    const q = { limit: 2, status: 'open' };
    assert.deepEqual(listNext({ data: [], has_more: true, next_cursor: 'c1' }, undefined, q), {
      ...q,
      cursor: 'c1',
    });
    assert.equal(
      listNext({ data: [], has_more: false, next_cursor: null }, '<x?c=1>; rel="next"', q),
      undefined,
    );
    assert.deepEqual(listNext([], '</v1/tickets?limit=2&cursor=c2>; rel="next"', q), {
      limit: '2',
      cursor: 'c2',
    });
    assert.deepEqual(
      listNext([], '</a?cursor=p>; rel="prev", </v1/tickets?cursor=c3>; rel="next"', q),
      { cursor: 'c3' },
    );
    assert.deepEqual(listNext({ items: [], next: 'c4' }, undefined, q), { ...q, cursor: 'c4' });
    assert.equal(listNext({ items: [], next: null }, undefined, q), undefined);
    assert.equal(listNext([], undefined, q), undefined);
  });
});
