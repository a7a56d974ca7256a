/** Checks of the ticket list: its envelope, cursor pagination and the status/priority filters (U4). */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';

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
    const data = (ex.response?.json as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data))
      return { received: `body ${show(ex.response?.json, 80)}`, expected: 'a list envelope' };
    // An item that is no object (null, a string) matches no filter.
    const off = data.filter((t: unknown) =>
      Object.entries(a.filter).some(
        ([k, v]) =>
          v !== undefined &&
          (t === null || typeof t !== 'object' || (t as Record<string, unknown>)[k] !== v),
      ),
    );
    if (off.length === 0) return undefined;
    return {
      received: `${off.length} of ${data.length} listed tickets do not match ${show(a.filter)} (e.g. ${show(off[0], 120)})`,
      expected: `only tickets matching ${show(a.filter)}`,
    };
  },
});

/** args: the filter sent; the ticket that matches it must be listed. */
export const filterIncludes = defineCheck({
  name: 'tickets.filter-includes',
  provenance: 'assumed',
  rule: 'U4: a filtered list contains the tickets that match the filter.',
  kind: 'scenario',
  run(ex, a: { id: string; filter: Record<string, string> }) {
    const data = (ex.response?.json as { data?: Array<{ id?: string }> } | undefined)?.data;
    if (Array.isArray(data) && data.some((t) => t?.id === a.id)) return undefined;
    return {
      received: `ticket ${a.id} absent from the first page filtered by ${show(a.filter)}`,
      expected: 'the matching ticket listed (newest first)',
    };
  },
});

export const TICKET_LIST_CHECKS = [listEnvelope, paginationWalk, filterApplied, filterIncludes];
