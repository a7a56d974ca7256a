/**
 * Workspace isolation (documented): workspace B (HARNESS_OTHER_WORKSPACE_KEY) gets for workspace
 * A's ticket exactly the answer it gets for an unknown ticket, on reads and writes alike, cannot
 * change it, and never sees it in a list, a filtered list or any page of a pagination walk. B's
 * read of A's ticket by id is judged by the rule × operation matrix (with the U21 probes), on
 * every read with a path id, so no test sends it again here (each request costs the key's budget).
 */
import { randomBytes } from 'node:crypto';
import type { ForeignWrite } from '../core/checks/catalogue/auth.ts';
import type { Exchange } from '../core/checks/types.ts';
import { listRows } from '../core/http/list-page.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import {
  MISSING_ID,
  createTicket,
  idOf,
  limitIgnored,
  observeCrossCutting,
  readableTicket,
  skipIfReadOnly,
  unknownId,
} from './helpers.ts';
import { walkTickets } from './ticket-walk.ts';

/** Epoch ms of the earliest `created_at` of these creations' answers (undefined if one has none). */
function earliestCreatedAt(made: Array<{ json?: unknown }>): number | undefined {
  const at = made.map((ex) =>
    Date.parse(String((ex.json as { created_at?: unknown } | undefined)?.created_at)),
  );
  return at.some(Number.isNaN) ? undefined : Math.min(...at);
}

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

test.describe('workspace isolation', () => {
  test('another workspace cannot update, close or reply to a ticket: answered as unknown', {
    tag: [
      '@isolation.write-other-workspace',
      '@isolation.same-as-unknown',
      '@isolation.foreign-unchanged',
    ],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('otherWorkspaceKey');
    const mine = await createTicket(api, tag, 'isolation: writes', { priority: 'high' });
    need(idOf(mine), 'workspace A created a ticket').not.toBe(MISSING_ID);
    // Its twin, a ticket of A that B never writes: what the deployment does to a ticket by itself
    // meanwhile (isolation.foreign-unchanged tells that from B's doing). The worker's shared
    // readable ticket serves (no ticket made for it alone: each costs the key's budget), made the same way (priority
    // high): it holds none of B's values (priority low, status closed, B's subject), so only what
    // B's writes did can differ.
    const twin = await readableTicket(api, tag);
    const id = encodeURIComponent(idOf(mine));
    const ghost = unknownId();
    const b = api.withKey(target.keys.otherWorkspace);
    const takenOver = `taken over by workspace B ${randomBytes(4).toString('hex')}`;
    const writes: Array<[string, Record<string, unknown>, (tid: string) => Promise<Exchange>]> = [
      [
        'PATCH /v1/tickets/{id}',
        { subject: takenOver, priority: 'low' },
        (tid) =>
          b.send('PATCH', `/v1/tickets/${tid}`, { body: { subject: takenOver, priority: 'low' } }),
      ],
      [
        'POST /v1/tickets/{id}/messages',
        {},
        (tid) =>
          b.send('POST', `/v1/tickets/${tid}/messages`, {
            body: { body: 'hello from B', author: 'agent' },
          }),
      ],
      [
        'POST /v1/tickets/{id}/close',
        { status: 'closed' },
        (tid) => b.send('POST', `/v1/tickets/${tid}/close`),
      ],
    ];
    const tried: ForeignWrite[] = [];
    for (const [operation, sets, write] of writes) {
      const foreign = await write(id);
      const unknown = await write(ghost);
      const s = foreign.response?.status;
      tried.push({ operation, sets, refused: s !== undefined && (s < 200 || s >= 300) });
      // Served as unknown (U21) is judged only where the write was refused at all.
      if (verdict.check('isolation.write-other-workspace', foreign, { operation }))
        verdict.check('isolation.same-as-unknown', foreign, { unknown, operation });
    }
    const after = await api.send('GET', `/v1/tickets/${id}`);
    const twinNow = await api.send('GET', `/v1/tickets/${encodeURIComponent(twin.id)}`);
    verdict.check('isolation.foreign-unchanged', after, {
      writes: tried,
      twin: (twinNow.json ?? {}) as Record<string, unknown>,
    });
  });

  test("lists, filters and a pagination walk never contain another workspace's tickets", {
    tag: ['@isolation.list'],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('otherWorkspaceKey');
    // Workspace A's tickets: every one this worker has made so far (none made for this test
    // alone), the shared readable one (priority high, open) at least — any of them in
    // one of B's lists is a leak (a leaked one shows in the filters below that it matches).
    const readable = await readableTicket(api, tag);
    const foreignIds = [
      ...new Set([
        readable.id,
        ...target.created
          .filter((c) => c.kind === 'ticket' && c.workspace !== 'other')
          .map((c) => c.id),
      ]),
    ];
    const b = api.withKey(target.keys.otherWorkspace);
    const seen: string[] = [];
    const collect = (ex: Exchange) => {
      for (const t of listRows(ex.response?.json)) if (typeof t?.id === 'string') seen.push(t.id);
      return ex.response?.json as { has_more?: boolean; next_cursor?: string | null } | undefined;
    };
    collect(await b.send('GET', '/v1/tickets', { query: { limit: 100 } }));
    for (const query of [
      { status: 'open' },
      { priority: 'high' },
      { priority: 'low' },
      { status: 'open', priority: 'high' },
    ]) {
      collect(await b.send('GET', '/v1/tickets', { query: { ...query, limit: 100 } }));
    }
    // B's list walked until it is past the moment A's tickets were created (newest first, a
    // leaked one would be listed before that), or at most 30 pages: B's workspace may hold
    // thousands of old tickets on a long-lived staging (contracts/ticket-walk.ts). A list that
    // ignores limit has no pages: its one answer is the list read first.
    if (!limitIgnored(target)) {
      const walk = await walkTickets(
        (query) => b.send('GET', '/v1/tickets', { query: query as Record<string, string> }),
        { limit: 10, maxPages: 30, before: earliestCreatedAt([readable]) },
      );
      seen.push(...walk.seen);
    }
    verdict.check('isolation.list', undefined, { foreignIds, seen });
  });
});
