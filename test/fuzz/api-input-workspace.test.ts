/**
 * The API input fuzz's ticket count on a target without the summary report (fuzz/api-input/
 * workspace.ts): a bounded walk of the list — exact on a small workspace, and on a long-lived
 * one not taken at all (`not-counted`) instead of reading thousands of tickets per case.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer, HttpClient } from '../../core/http/client.ts';
import { LIST_WALK_PAGES, openWorkspace } from '../../fuzz/api-input/workspace.ts';

/** A target with `n` tickets, no /v1/reports/summary, pages of at most 100; counts list calls. */
function fakeTarget(n: number): { http: HttpClient; lists: () => number } {
  let lists = 0;
  const answer = (status: number, json: unknown) => ({ status, json }) as unknown as Answer;
  const http = {
    baseUrl: 'http://fake',
    sent: 0,
    withKey: () => http,
    close: async () => {},
    send: async (_method: string, path: string) => {
      const url = new URL(path, 'http://fake');
      if (url.pathname !== '/v1/tickets') return answer(404, { status: 404 });
      lists++;
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const data = Array.from({ length: Math.max(0, Math.min(limit, n - from)) }, (_, i) => ({
        id: `t${from + i}`,
      }));
      const next = from + limit < n ? String(from + limit) : null;
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
