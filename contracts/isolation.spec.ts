/**
 * Workspace isolation (documented): workspace B (HARNESS_OTHER_WORKSPACE_KEY) gets for workspace
 * A's ticket exactly the answer it gets for an unknown ticket, on reads and writes alike, and never
 * sees it in a list, a filtered list or any page of a pagination walk.
 */
import type { Exchange } from '../core/checks/types.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import {
  MISSING_ID,
  createTicket,
  idOf,
  observeCrossCutting,
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
  test("another workspace's ticket reads as an unknown ticket", {
    tag: [
      '@isolation.get-other-workspace',
      '@isolation.same-as-unknown',
      '@validation.unknown-404',
    ],
  }, async ({ api, verdict, needs, tag, target, probe }) => {
    needs('otherWorkspaceKey');
    const mine = await createTicket(api, tag, 'isolation: get');
    need(idOf(mine), 'workspace A created a ticket').not.toBe(MISSING_ID);
    const b = api.withKey(target.keys.otherWorkspace);
    const foreign = await b.send('GET', `/v1/tickets/${encodeURIComponent(idOf(mine))}`);
    const unknown = await b.send('GET', `/v1/tickets/${unknownId()}`);
    probe('U21', 'foreign-ticket-status', foreign.status ?? null);
    probe('U21', 'unknown-ticket-status', unknown.status ?? null);
    probe('U21', 'foreign-same-as-unknown', foreign.status === unknown.status);
    verdict.check('isolation.get-other-workspace', foreign, {
      ticket: (mine.json ?? {}) as Record<string, unknown>,
    });
    verdict.check('isolation.same-as-unknown', foreign, {
      unknown,
      operation: 'GET /v1/tickets/{id}',
    });
    verdict.check('validation.unknown-404', unknown, { what: 'GET of an unknown ticket' });
  });

  test('another workspace cannot update, close or reply to a ticket: answered as unknown', {
    tag: [
      '@isolation.write-other-workspace',
      '@isolation.same-as-unknown',
      '@isolation.foreign-unchanged',
    ],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('otherWorkspaceKey');
    const mine = await createTicket(api, tag, 'isolation: writes');
    need(idOf(mine), 'workspace A created a ticket').not.toBe(MISSING_ID);
    const id = encodeURIComponent(idOf(mine));
    const ghost = unknownId();
    const b = api.withKey(target.keys.otherWorkspace);
    const writes: Array<[string, (tid: string) => Promise<Exchange>]> = [
      [
        'PATCH /v1/tickets/{id}',
        (tid) => b.send('PATCH', `/v1/tickets/${tid}`, { body: { subject: 'taken over' } }),
      ],
      [
        'POST /v1/tickets/{id}/messages',
        (tid) =>
          b.send('POST', `/v1/tickets/${tid}/messages`, {
            body: { body: 'hello from B', author: 'agent' },
          }),
      ],
      ['POST /v1/tickets/{id}/close', (tid) => b.send('POST', `/v1/tickets/${tid}/close`)],
    ];
    for (const [operation, write] of writes) {
      const foreign = await write(id);
      const unknown = await write(ghost);
      verdict.check('isolation.write-other-workspace', foreign, { operation });
      verdict.check('isolation.same-as-unknown', foreign, { unknown, operation });
    }
    const after = await api.send('GET', `/v1/tickets/${id}`);
    verdict.check('isolation.foreign-unchanged', after, {
      before: (mine.json ?? {}) as Record<string, unknown>,
    });
  });

  test("lists, filters and a pagination walk never contain another workspace's tickets", {
    tag: ['@isolation.list'],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('otherWorkspaceKey');
    const created = [
      await createTicket(api, tag, 'isolation: list high', { priority: 'high' }),
      await createTicket(api, tag, 'isolation: list low', { priority: 'low' }),
    ];
    const foreignIds = created.map(idOf);
    const b = api.withKey(target.keys.otherWorkspace);
    const seen: string[] = [];
    const collect = (ex: Exchange) => {
      const data = (ex.response?.json as { data?: Array<{ id?: string }> } | undefined)?.data;
      const rows = Array.isArray(data)
        ? data
        : Array.isArray(ex.response?.json)
          ? (ex.response!.json as Array<{ id?: string }>)
          : [];
      for (const t of rows) if (typeof t?.id === 'string') seen.push(t.id);
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
    // thousands of old tickets on a long-lived staging (contracts/ticket-walk.ts).
    const walk = await walkTickets(
      (query) => b.send('GET', '/v1/tickets', { query: query as Record<string, string> }),
      { limit: 10, maxPages: 30, before: earliestCreatedAt(created) },
    );
    seen.push(...walk.seen);
    verdict.check('isolation.list', undefined, { foreignIds, seen });
  });
});
