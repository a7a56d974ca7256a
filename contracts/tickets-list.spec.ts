/**
 * Listing tickets: the envelope and page size (U4), a cursor walk without duplicates or gaps, the
 * status and priority filters, and the query parameters' validation. Other tests create tickets at
 * the same time, and staging holds thousands of old ones, so every assertion is about containment
 * of this test's tickets and every list read is bounded (a page, or a walk that stops once past
 * this test's tickets: contracts/ticket-walk.ts).
 */
import { listedTickets, matchesFilter } from '../core/checks/catalogue/ticket-lists.ts';
import { test } from './fixtures.ts';
import { notObservable } from '../core/snapshot/not-observable.ts';
import { need } from './need.ts';
import {
  MISSING_ID,
  createTicket,
  idOf,
  limitIgnored,
  observeCrossCutting,
  readableTicket,
  skipIfReadOnly,
} from './helpers.ts';
import { walkTickets, walkText } from './ticket-walk.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

type Page = { data?: Array<{ id?: string }>; has_more?: boolean; next_cursor?: string | null };

/** The walk's page size (small: several page boundaries among a test's few tickets) and cap. */
const WALK_LIMIT = 2;
const WALK_MAX_PAGES = 50;

/** Epoch ms of the earliest `created_at` the creations answered (undefined when none did). */
function earliestCreated(made: Array<{ json?: unknown }>): number | undefined {
  const at = made
    .map((ex) => Date.parse(String((ex.json as { created_at?: unknown } | undefined)?.created_at)))
    .filter((t) => !Number.isNaN(t));
  return at.length === made.length ? Math.min(...at) : undefined;
}

test.describe('list tickets', () => {
  test('answers the list envelope {data, has_more, next_cursor}; pages hold at most 100', {
    tag: [
      '@tickets.list-envelope',
      '@tickets.list-holds-tickets',
      '@tickets.status-code',
      '@validation.status-422',
      '@exchange.documented-status',
    ],
  }, async ({ api, verdict, tag, probe, target }) => {
    // A ticket to list: the one the tests that only read share in this worker.
    const held = await readableTicket(api, tag);
    const holds = held.id === MISSING_ID ? undefined : held.id;
    let first = await api.call('get', '/v1/tickets');
    // A list served from an index may lag its writes by a moment: an empty first list is read
    // once more before it is judged (a correct deployment costs no extra request).
    if (holds && listedTickets(first.json)?.length === 0) {
      await new Promise((r) => setTimeout(r, 1000));
      first = await api.call('get', '/v1/tickets');
    }
    verdict.check('tickets.status-code', first, { expected: [200], what: 'GET /v1/tickets' });
    verdict.check('tickets.list-holds-tickets', first, { holds });
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
    // Seen only when the first page is full: on a fresh workspace, whose other tests create
    // tickets in any order, it may hold them all — then this run could not observe it.
    const page = j as Page | undefined;
    probe(
      'U4',
      'default-page-size',
      page?.has_more === true
        ? (page.data?.length ?? null)
        : notObservable(`the first page held every ticket (${page?.data?.length ?? 'none'})`),
    );

    need(first.response, 'the target answered').toBeDefined();
    // A list that ignores limit has no largest page: each read would be the whole workspace.
    const ignored = limitIgnored(target);
    if (ignored) {
      for (const id of ['limit-100-status', 'limit-101-status'])
        probe('U4', id, notObservable(ignored));
      probe('U4', 'max-page-size', 'limit ignored');
      probe('U26', 'page-size-limit', 'limit ignored');
      return;
    }
    const max = await api.send('GET', '/v1/tickets', { query: { limit: 100 } });
    const over = await api.send('GET', '/v1/tickets', { query: { limit: 101 } });
    probe('U4', 'limit-100-status', max.status ?? null);
    probe('U4', 'limit-101-status', over.status ?? null);
    probe('U4', 'max-page-size', over.status === 200 ? '>100' : max.status === 200 ? 100 : '<100');
    probe(
      'U26',
      'page-size-limit',
      over.status === 200 ? '>100' : max.status === 200 ? 100 : '<100',
    );
    verdict.check('tickets.status-code', max, { expected: [200], what: 'limit=100' });
    verdict.check('tickets.list-holds-tickets', max, { holds });
    verdict.check('tickets.list-envelope', max);
    verdict.check('validation.status-422', over, { what: 'limit=101' });
  });

  test('a cursor walk visits every ticket once: no duplicates, no gaps', {
    tag: ['@tickets.pagination-walk', '@tickets.list-envelope'],
  }, async ({ api, verdict, tag, probe, target }) => {
    // Without pages there is no walk: its one page is the whole workspace (the preflight's).
    const ignored = limitIgnored(target);
    test.skip(ignored !== undefined, ignored);
    // Three tickets at two a page: a page boundary among them, another right after (the extra
    // page), and a first page with more after it — what a duplicate or a skipped row at a cursor
    // needs to show; each more would cost a creation and a clean-up close.
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createTicket(api, tag, `walk ${i}`));
    const mine = made.map(idOf);
    // Bounded on a long-lived, shared workspace (contracts/ticket-walk.ts): newest first, the walk
    // meets this test's tickets on its first pages; one more page checks the boundary after them.
    // Past the moment they were created, a ticket of theirs not seen is a gap.
    const walk = await walkTickets((query) => api.call('get', '/v1/tickets', { query }), {
      limit: WALK_LIMIT,
      maxPages: WALK_MAX_PAGES,
      lookFor: mine,
      extraPages: 1,
      minPages: 3,
      before: earliestCreated(made),
    });
    // Without the envelope there is no cursor to follow: that is list-envelope's verdict alone.
    if (walk.last && verdict.check('tickets.list-envelope', walk.last))
      verdict.check('tickets.pagination-walk', walk.last, {
        seen: walk.seen,
        mustContain: mine,
        pages: walk.pages,
        // Stopped at its page cap before this test's tickets or the moment they were created (a
        // list not newest first on a large workspace): what is missing is not known to be missing.
        gapsKnown: walk.stoppedBy !== 'cap',
      });
    // Its first page (limit 2, this test's 3 tickets at least) always has more after it, so the
    // Link header's presence is the deployment's behaviour, not the data's.
    const firstPage = walk.first?.response?.json as Page | undefined;
    probe(
      'U4',
      'next-page-link-header',
      firstPage?.has_more === true
        ? (walk.first?.response?.headers.link ?? null)
        : notObservable('the first page of the walk had nothing after it'),
      'Link header on a page with more after it (limit=2)',
    );
    probe(
      'U4',
      'oversized-pages',
      walk.oversized,
      'pages larger than the limit asked for (limit=2)',
    );
    // How the walk ended goes in the label (compared by id only): found, passed, end, or cap —
    // after the cap, missing tickets were not judged as gaps.
    probe(
      'U4',
      'list-newest-first',
      walk.newestFirst,
      `created_at never rises along the cursor walk (${walkText(walk, WALK_LIMIT)})`,
    );
  });

  test('filters by status and priority', {
    tag: ['@tickets.filter-applied', '@tickets.filter-includes'],
  }, async ({ api, verdict, tag }) => {
    // High and open: the worker's shared ticket (never written to), as its creation answered it
    // — a ticket of its own would cost a creation and a clean-up close.
    const high = (await readableTicket(api, tag)).created as { json?: unknown };
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
  }, async ({ api, verdict, target }) => {
    // A parameter the list ignores is not sent: each would answer the whole workspace.
    const seen = target.cfg.listIgnoresLimit;
    for (const query of [
      ...(seen ? [] : [{ limit: 0 }, { limit: 'many' }]),
      { status: 'bogus' },
      { priority: 'urgent' },
      ...(seen && !seen.paged ? [] : [{ cursor: 'not-a-cursor' }]),
    ] as Array<Record<string, string | number>>) {
      const ex = await api.send('GET', '/v1/tickets', { query });
      const what = `GET /v1/tickets?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
      verdict.check('validation.status-422', ex, { what });
      verdict.check('validation.problem-body', ex);
    }
  });
});
