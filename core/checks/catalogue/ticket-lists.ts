/** Checks of the ticket list: its envelope, cursor pagination and the status/priority filters (U4). */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';

/**
 * The tickets a list answer holds: the envelope's data (U4), or a bare array. Whether the list
 * has the envelope is tickets.list-envelope's verdict alone: the filter and isolation checks judge
 * the tickets listed, whatever the list's shape.
 */
export function listRows(json: unknown): Array<Record<string, unknown>> {
  const data = Array.isArray(json) ? json : (json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data)
    ? data.filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null)
    : [];
}

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
    const data = Array.isArray(json) ? json : (json as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data))
      return { received: `body ${show(json, 80)}`, expected: 'a list of tickets' };
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

export const TICKET_LIST_CHECKS = [listEnvelope, paginationWalk, filterApplied, filterIncludes];
