/** Checks of the ticket list: its envelope, cursor pagination and the status/priority filters (U4). */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import { listArray, listRows } from '../../http/list-page.ts';

/** Whether a ticket, as the deployment answered it, matches a list filter. */
export const matchesFilter = (t: Record<string, unknown>, filter: Record<string, unknown>) =>
  Object.entries(filter).every(([k, v]) => v === undefined || t[k] === v);

export const listEnvelope = defineCheck({
  name: 'tickets.list-envelope',
  provenance: 'assumed',
  rule: 'U4: a list is {data, has_more, next_cursor}.',
  kind: 'scenario',
  run(ex) {
    const j = ex.response?.json as any;
    if (
      j &&
      !Array.isArray(j) &&
      Array.isArray(j.data) &&
      typeof j.has_more === 'boolean' &&
      'next_cursor' in j
    ) {
      return undefined;
    }
    return {
      received: `body ${show(j, 120)}`,
      expected: '{ data: [...], has_more: boolean, next_cursor: string|null }',
    };
  },
});

/**
 * args: ids in walk order, the ids known to exist in the workspace (a subset that must all be
 * seen), and whether the walk went far enough to know a missing one is a gap (`gapsKnown`,
 * default true: a bounded walk cut at its page cap before reaching them does not).
 */
export const paginationWalk = defineCheck({
  name: 'tickets.pagination-walk',
  provenance: 'assumed',
  rule: 'U4: following next_cursor visits every ticket exactly once.',
  kind: 'scenario',
  run(_ex, a: { seen: string[]; mustContain: string[]; pages: number; gapsKnown?: boolean }) {
    const once = new Set<string>();
    let dupes = 0;
    for (const id of a.seen) {
      if (once.has(id)) dupes++;
      once.add(id);
    }
    const missing = a.gapsKnown === false ? [] : a.mustContain.filter((id) => !once.has(id));
    if (dupes === 0 && missing.length === 0) return undefined;
    return {
      received: `${a.pages} pages, ${a.seen.length} items, ${dupes} duplicates, ${missing.length} of ${a.mustContain.length} created tickets missing`,
      expected: 'no duplicates and no gaps',
    };
  },
});

/** args: the filter sent; every listed ticket must match it. */
export const filterApplied = defineCheck({
  name: 'tickets.filter-applied',
  provenance: 'assumed',
  rule: 'U4: the status and priority query parameters filter the list.',
  kind: 'scenario',
  run(ex, a: { filter: { status?: string; priority?: string } }) {
    const json = ex.response?.json;
    const data = listArray(json);
    if (!data) return { received: `body ${show(json, 80)}`, expected: 'a list of tickets' };
    // An item that is no object (null, a string) matches no filter.
    const off = data.filter(
      (t: unknown) =>
        t === null ||
        typeof t !== 'object' ||
        !matchesFilter(t as Record<string, unknown>, a.filter),
    );
    if (off.length === 0) return undefined;
    return {
      received: `${off.length} of ${data.length} listed tickets do not match ${show(a.filter)} (e.g. ${show(off[0], 120)})`,
      expected: `only tickets matching ${show(a.filter)}`,
    };
  },
});

/**
 * args: the filter sent and a ticket that matches it — as the deployment last answered it: a
 * ticket whose priority or status is not what the test asked for (priority-echoed's or the
 * operation's verdict) matches by the values it has, not by those asked for.
 */
export const filterIncludes = defineCheck({
  name: 'tickets.filter-includes',
  provenance: 'assumed',
  rule: 'U4: a filtered list contains the tickets that match the filter.',
  kind: 'scenario',
  run(ex, a: { id: string; filter: Record<string, string> }) {
    if (listRows(ex.response?.json).some((t) => t.id === a.id)) return undefined;
    return {
      received: `ticket ${a.id} absent from the first page filtered by ${show(a.filter)}`,
      expected: 'the matching ticket listed (newest first)',
    };
  },
});

/**
 * The tickets of a list answer whatever its envelope (not shown in the docs): a bare array, the
 * envelope's `data`, or else the one array of objects the answer's object holds. Undefined when
 * the answer holds no list of Ticket representations at all (objects with a string `id`).
 */
export function listedTickets(json: unknown): Array<Record<string, unknown>> | undefined {
  const rows = listArray(json);
  return rows?.every(
    (t) => typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'string',
  )
    ? (rows as Array<Record<string, unknown>>)
    : undefined;
}

/**
 * The documented minimum of a list, whatever its envelope (U4): "List tickets … Ticket
 * representations" (Endpoints). A 2xx answer holds a list of tickets, and — read after the API
 * answered the creation of the worker's ticket — lists at least one: which tickets, their order
 * and paging are not shown, but a list that never lists the workspace's tickets lists none. The
 * envelope's keys stay tickets.list-envelope's verdict (assumed). args.holds: a ticket of the workspace whose
 * creation the API answered (the worker's shared ticket).
 */
export const listHoldsTickets = defineCheck({
  name: 'tickets.list-holds-tickets',
  provenance: 'documented',
  assumptions: [],
  rule: 'Endpoints: List tickets answers Ticket representations — a list of tickets (envelope not shown), not empty while the workspace holds one.',
  kind: 'scenario',
  run(ex, a: { holds?: string } = {}) {
    const r = ex.response;
    if (!r || r.status < 200 || r.status >= 300) return undefined;
    const rows = listedTickets(r.json);
    if (!rows)
      return {
        received: `${r.status} body ${r.bodyText.length === 0 ? '(empty)' : show(r.json ?? r.bodyText, 120)}`,
        expected: 'Ticket representations: a JSON array of tickets, bare or in the envelope',
      };
    if (a.holds && rows.length === 0)
      return {
        received: `${r.status} with an empty list`,
        expected: `the workspace's tickets: it holds ${a.holds}, whose creation it answered`,
      };
    return undefined;
  },
});

export const TICKET_LIST_CHECKS = [
  listEnvelope,
  listHoldsTickets,
  paginationWalk,
  filterApplied,
  filterIncludes,
];
