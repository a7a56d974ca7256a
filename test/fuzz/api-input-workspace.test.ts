/**
 * The API input fuzz's ticket count on a target without the summary report (fuzz/api-input/
 * workspace.ts): a bounded walk of the list — exact on a small workspace, and on a long-lived
 * one not taken at all (`not-counted`) instead of reading thousands of tickets per case — and
 * whatever the list's envelope and paging (U4, server/readings/lists.ts): counted where the list
 * shows where it ends, else not counted, never a wrong count.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer, HttpClient } from '../../core/http/client.ts';
import { LIST_WALK_PAGES, openWorkspace } from '../../fuzz/api-input/workspace.ts';

/** How the fake list answers: our envelope, or one of the readings of U4 / U26. */
type Shape = 'data' | 'bare-link' | 'items-next' | 'unpaginated' | 'page-max-50';

/** A target with `n` tickets, no /v1/reports/summary, pages of at most 100; counts list calls. */
function fakeTarget(n: number, shape: Shape = 'data'): { http: HttpClient; lists: () => number } {
  let lists = 0;
  const answer = (status: number, json: unknown, link?: string) =>
    ({
      status,
      json,
      response: { status, headers: link ? { link } : {} },
    }) as unknown as Answer;
  const http = {
    baseUrl: 'http://fake',
    sent: 0,
    withKey: () => http,
    close: async () => {},
    send: async (_method: string, path: string) => {
      const url = new URL(path, 'http://fake');
      if (url.pathname !== '/v1/tickets') return answer(404, { status: 404 });
      lists++;
      const ids = (from: number, k: number) =>
        Array.from({ length: Math.max(0, Math.min(k, n - from)) }, (_, i) => ({
          id: `t${from + i}`,
        }));
      if (shape === 'unpaginated') return answer(200, ids(0, n));
      const limit = Number(url.searchParams.get('limit'));
      if (shape === 'page-max-50' && limit > 50) return answer(422, { status: 422 });
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const data = ids(from, limit);
      const next = from + limit < n ? String(from + limit) : null;
      const address = next && `/v1/tickets?limit=${limit}&cursor=${next}`;
      if (shape === 'bare-link')
        return answer(200, data, address ? `<${address}>; rel="next"` : undefined);
      if (shape === 'items-next') return answer(200, { items: data, next: address });
      return answer(200, { data, has_more: next !== null, next_cursor: next });
    },
  } as unknown as HttpClient;
  return { http, lists: () => lists };
}

test('a small workspace without the summary report is counted by a walk of the list', async () => {
  const t = fakeTarget(250);
  const ws = await openWorkspace(t.http, {});
  assert.equal(ws.countedVia, 'list-walk');
  assert.equal(await ws.count(), 250);
});

test('a long-lived workspace is not counted: the walk stops at its bound, once', async () => {
  const t = fakeTarget(3000);
  const ws = await openWorkspace(t.http, {});
  assert.equal(ws.countedVia, 'not-counted');
  assert.equal(t.lists(), LIST_WALK_PAGES, 'one bounded walk when the workspace is opened');
  assert.equal(await ws.count(), undefined);
  assert.equal(await ws.count(), undefined);
  assert.equal(t.lists(), LIST_WALK_PAGES, 'and no list read per case');
});

test('another envelope is counted by its own next page: a Link header, a next address', async () => {
  for (const shape of ['bare-link', 'items-next'] as const) {
    const ws = await openWorkspace(fakeTarget(250, shape).http, {});
    assert.equal(ws.countedVia, 'list-walk', shape);
    assert.equal(await ws.count(), 250, shape);
  }
});

test('a list that ignores the limit is counted from its one answer; a full page that names no next is not', async () => {
  const all = await openWorkspace(fakeTarget(250, 'unpaginated').http, {});
  assert.equal(all.countedVia, 'list-walk');
  assert.equal(await all.count(), 250);
  const exactly = await openWorkspace(fakeTarget(100, 'unpaginated').http, {});
  assert.equal(exactly.countedVia, 'not-counted', 'a full page without paging keys may have more');
});

test('a list that refuses the page size asked (a smaller largest page) is not counted: no error', async () => {
  const t = fakeTarget(250, 'page-max-50');
  const ws = await openWorkspace(t.http, {});
  assert.equal(ws.countedVia, 'not-counted');
  assert.equal(t.lists(), 1);
});
