/**
 * Readings of the ticket list (U4: "the envelope and any query parameters: not shown"; U26: the
 * largest page): how GET /v1/tickets pages, orders, wraps and filters what it lists.
 */
import type { Reading } from './reading.ts';

export interface ListBehaviour {
  /**
   * U4: `cursor` — pages of `limit` tickets (default 25) and a cursor to the next; `none` — every
   * ticket of the workspace in one answer, `limit` and `cursor` ignored (never validated).
   */
  listPaging: 'cursor' | 'none';
  /** U4: the list's order by creation. */
  listOrder: 'newest-first' | 'oldest-first';
  /**
   * U4: the answer's shape — `{data, has_more, next_cursor}`; a bare array (the next page only in
   * the `Link` header); or `{items, next}`, `next` the address of the next page or null. Without
   * paging the envelope has no paging keys: `{data}`, the array, `{items}`.
   */
  listEnvelope: 'data' | 'bare-array' | 'items-next';
  /** U4: the query filters the list knows; one it does not know is ignored, never validated. */
  listFilters: 'status-priority' | 'status' | 'none';
  /** U26: the largest `limit` (1–pageMax); a larger one is refused (422). */
  pageMax: number;
}

export const LIST_DEFAULTS: ListBehaviour = {
  listPaging: 'cursor',
  listOrder: 'newest-first',
  listEnvelope: 'data',
  listFilters: 'status-priority',
  pageMax: 100,
};

export const LIST_READINGS: Reading<ListBehaviour>[] = [
  {
    name: 'U4=unpaginated',
    gap: 'U4',
    does: 'lists every ticket of the workspace in one answer {data}: limit and cursor are ignored, whatever their value',
    set: { listPaging: 'none' },
    shows: ['tickets.list-envelope', 'validation.status-422'],
  },
  {
    name: 'U4=oldest-first',
    gap: 'U4',
    does: 'lists oldest first: the cursor pages from the first ticket ever created to the newest',
    set: { listOrder: 'oldest-first' },
    shows: ['tickets.filter-includes', 'probe:U4'],
  },
  {
    name: 'U4=bare-array',
    gap: 'U4',
    does: 'lists tickets as a bare JSON array, the next page only in the Link header (rel="next")',
    set: { listEnvelope: 'bare-array' },
    shows: ['tickets.list-envelope'],
  },
  {
    name: 'U4=items-next',
    gap: 'U4',
    does: 'lists tickets as {items, next}: next is the address of the next page, or null',
    set: { listEnvelope: 'items-next' },
    shows: ['tickets.list-envelope'],
  },
  {
    name: 'U4=no-filters',
    gap: 'U4',
    does: 'has no status or priority filter: the parameters are ignored (any value), the list unfiltered',
    set: { listFilters: 'none' },
    shows: ['tickets.filter-applied'],
  },
  {
    name: 'U4=no-priority-filter',
    gap: 'U4',
    does: 'filters by status only: the priority parameter is ignored (any value)',
    set: { listFilters: 'status' },
    shows: ['tickets.filter-applied'],
  },
  {
    name: 'U26=page-max-50',
    gap: 'U26',
    does: 'pages hold at most 50 tickets: a limit from 51 up is refused with 422',
    set: { pageMax: 50 },
    shows: ['tickets.status-code', 'probe:U26'],
  },
];
