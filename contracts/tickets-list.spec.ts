/**
 * Listing tickets: the envelope and page size (U4), a full cursor walk without duplicates or gaps,
 * the status and priority filters, and the query parameters' validation. Other tests create
 * tickets at the same time, so every assertion is about containment of this test's tickets.
 */
import { matchesFilter } from '../core/checks/catalogue/ticket-lists.ts';
import type { Exchange } from '../core/checks/types.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { MISSING_ID, createTicket, idOf, observeCrossCutting, skipIfReadOnly } from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

type Page = { data?: Array<{ id?: string }>; has_more?: boolean; next_cursor?: string | null };

test.describe('list tickets', () => {
  test('answers the list envelope {data, has_more, next_cursor}; pages hold at most 100', {
    tag: [
      '@tickets.list-envelope',
      '@tickets.status-code',
      '@validation.status-422',
      '@exchange.documented-status',
    ],
  }, async ({ api, verdict, tag, probe }) => {
    await createTicket(api, tag, 'list envelope');
    const first = await api.call('get', '/v1/tickets');
    verdict.check('tickets.status-code', first, { expected: [200], what: 'GET /v1/tickets' });
    verdict.check('tickets.list-envelope', first);
    const j = first.json as unknown;
    probe(
      'U4',
      'envelope-keys',
      j && typeof j === 'object' && !Array.isArray(j)
        ? Object.keys(j).sort()
        : Array.isArray(j)
          ? 'bare array'
          : null,
    );
    probe('U4', 'first-page-link-header', first.response?.headers.link ?? null);
    const page = j as Page | undefined;
    if (page?.has_more) probe('U4', 'default-page-size', page.data?.length ?? null);

    const max = await api.send('GET', '/v1/tickets', { query: { limit: 100 } });
    const over = await api.send('GET', '/v1/tickets', { query: { limit: 101 } });
    probe('U4', 'limit-100-status', max.status ?? null);
    probe('U4', 'limit-101-status', over.status ?? null);
    probe('U4', 'max-page-size', over.status === 200 ? '>100' : max.status === 200 ? 100 : '<100');
    probe('U26', 'page-size-limit', over.status === 200 ? '>100' : 100);
    verdict.check('tickets.status-code', max, { expected: [200], what: 'limit=100' });
    verdict.check('tickets.list-envelope', max);
    verdict.check('validation.status-422', over, { what: 'limit=101' });
    need(first.response, 'the target answered').toBeDefined();
  });

  test('a cursor walk visits every ticket once: no duplicates, no gaps', {
    tag: ['@tickets.pagination-walk', '@tickets.list-envelope'],
  }, async ({ api, verdict, tag, probe }) => {
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push(idOf(await createTicket(api, tag, `walk ${i}`)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let last: Exchange | undefined;
    let oversized = 0;
    // Newest first: once every ticket of this test has been seen, one more page checks the
    // boundary; a deployment that lists oldest first is walked to the end (bounded).
    for (; pages < 300; ) {
      const ex = await api.call('get', '/v1/tickets', { query: { limit: 2, cursor } });
      pages++;
      last = ex;
      const body = ex.json as Page | undefined;
      if (!body || !Array.isArray(body.data)) break;
      if (body.data.length > 2) oversized++;
      for (const t of body.data) if (typeof t?.id === 'string') seen.push(t.id);
      if (!body.has_more || !body.next_cursor) break;
      cursor = body.next_cursor;
      if (mine.every((id) => seen.includes(id)) && pages >= 4) break;
    }
    // Without the envelope there is no cursor to follow: that is list-envelope's verdict alone.
    if (last && verdict.check('tickets.list-envelope', last))
      verdict.check('tickets.pagination-walk', last, { seen, mustContain: mine, pages });
    probe('U4', 'oversized-pages', oversized, 'pages larger than the limit asked for (limit=2)');
  });

  test('filters by status and priority', {
    tag: ['@tickets.filter-applied', '@tickets.filter-includes'],
  }, async ({ api, verdict, tag }) => {
    const high = await createTicket(api, tag, 'filter high', { priority: 'high' });
    const low = await createTicket(api, tag, 'filter low', { priority: 'low' });
    const closed = await createTicket(api, tag, 'filter closed', { priority: 'low' });
    const close = await api.send('POST', `/v1/tickets/${encodeURIComponent(idOf(closed))}/close`);
    // Each ticket as the deployment last answered it: one whose priority or status is not what
    // was asked for (ticket.priority-echoed's, tickets.close's verdict) is expected in the
    // filters it matches by the values it has.
    const answered = (ex: { json?: unknown }) => (ex.json ?? {}) as Record<string, unknown>;
    const cases: Array<[Record<string, string>, Record<string, unknown>]> = [
      [{ priority: 'high' }, answered(high)],
      [{ priority: 'low' }, answered(low)],
      [{ status: 'open' }, answered(high)],
      [{ status: 'closed' }, { ...answered(closed), ...answered(close) }],
      [{ status: 'open', priority: 'low' }, answered(low)],
    ];
    for (const [filter, ticket] of cases) {
      const ex = await api.send('GET', '/v1/tickets', { query: { ...filter, limit: 100 } });
      verdict.check('tickets.filter-applied', ex, { filter });
      if (matchesFilter(ticket, filter))
        verdict.check('tickets.filter-includes', ex, { id: String(ticket.id), filter });
    }
    need(idOf(high), 'tickets were created').not.toBe(MISSING_ID);
  });

  test('rejects invalid query parameters with 422', {
    tag: ['@validation.status-422', '@validation.problem-body', '@exchange.content-type'],
  }, async ({ api, verdict }) => {
    for (const query of [
      { limit: 0 },
      { limit: 'many' },
      { status: 'bogus' },
      { priority: 'urgent' },
      { cursor: 'not-a-cursor' },
    ] as Array<Record<string, string | number>>) {
      const ex = await api.send('GET', '/v1/tickets', { query });
      const what = `GET /v1/tickets?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
      verdict.check('validation.status-422', ex, { what });
      verdict.check('validation.problem-body', ex);
    }
  });
});
