/**
 * A bounded cursor walk of `GET /v1/tickets`. Staging is long-lived — thousands of tickets, some
 * huge — and shared: others create tickets while a walk runs. So a walk never reads a workspace
 * to its end; it stops at the first of:
 *   - `end`:    the list names no next page (`has_more` false or no `next_cursor`; in another
 *               envelope no `next` and no Link rel="next"), or the answer is no list;
 *   - `found`:  every ticket it looks for was seen, and `extraPages` more pages (the boundary);
 *   - `passed`: it is past a moment (`before`, epoch ms: when the run's tickets were created) —
 *               the list has been newest first so far and a page ends with an older ticket, so
 *               nothing created after that moment can come later;
 *   - `cap`:    `maxPages` pages (a list that is not newest first, or a flood of new tickets).
 * What it can assert soundly while others write: no ticket twice in what it walked (a cursor
 * walk, whatever is inserted at the head meanwhile), and — when it ended, found or passed them —
 * no ticket of the run's own missing. After `cap` the second is not known.
 */
import { listArray, listNext } from '../core/http/list-page.ts';
import type { Exchange } from '../core/checks/types.ts';

export type WalkStop = 'end' | 'found' | 'passed' | 'cap';

export interface WalkOptions {
  /** Page size asked for. */
  limit: number;
  /** The most pages read (stated in the report). */
  maxPages: number;
  /** Other query parameters (a status or priority filter). */
  query?: Record<string, string>;
  /** Ids looked for: the walk stops once all were seen (and `extraPages` more). */
  lookFor?: readonly string[];
  /** Pages read after the last looked-for id was seen. Default 0. */
  extraPages?: number;
  /** The fewest pages read before a `found` or `passed` stop (page boundaries to cross). Default 1. */
  minPages?: number;
  /** Epoch ms: stop once the walk is past tickets created at this moment (newest first). */
  before?: number;
}

export interface TicketWalk {
  /** Ids in walk order, as listed (a duplicate appears twice). */
  seen: string[];
  pages: number;
  stoppedBy: WalkStop;
  /** Every `created_at` seen so far was not newer than the one before it. */
  newestFirst: boolean;
  /** The first page's exchange (with more after it, its headers say how the next is linked). */
  first?: Exchange;
  /** The last page's exchange (its envelope is checked). */
  last?: Exchange;
  /** Pages that held more rows than the limit asked for. */
  oversized: number;
  /** Stopped at `end` where the list ends, as far as its answers show (not a full page alone). */
  endKnown: boolean;
}

/** Walks with `send` (one page per call, the cursor given) until one of the stops above. */
export async function walkTickets(
  send: (query: Record<string, string | number | undefined>) => Promise<Exchange>,
  o: WalkOptions,
): Promise<TicketWalk> {
  const lookFor = new Set(o.lookFor ?? []);
  const found = new Set<string>();
  const w: TicketWalk = {
    seen: [],
    pages: 0,
    stoppedBy: 'cap',
    newestFirst: true,
    oversized: 0,
    endKnown: false,
  };
  let lastCreated = Number.POSITIVE_INFINITY;
  let query: Record<string, string | number | undefined> = { ...o.query, limit: o.limit };
  let extra = -1;
  while (w.pages < o.maxPages) {
    const ex = await send(query);
    w.pages++;
    w.first ??= ex;
    w.last = ex;
    const json = ex.response?.json;
    const rows = listArray(json);
    if (!rows) {
      w.stoppedBy = 'end';
      return w;
    }
    if (rows.length > o.limit) w.oversized++;
    let oldest = Number.NaN;
    for (const t of rows as Array<{ id?: unknown; created_at?: unknown } | null>) {
      if (typeof t?.id === 'string') {
        w.seen.push(t.id);
        if (lookFor.has(t.id)) found.add(t.id);
      }
      const at = typeof t?.created_at === 'string' ? Date.parse(t.created_at) : Number.NaN;
      if (Number.isNaN(at) || at > lastCreated) w.newestFirst = false;
      else lastCreated = at;
      oldest = at;
    }
    const next = listNext(json, ex.response?.headers.link, query);
    if (!next) {
      w.stoppedBy = 'end';
      // The list's end as the deployment showed it: said so (has_more false), a page shorter
      // than the limit, one longer (it ignores the limit: the whole list in one answer), or the
      // last of pages it linked. A full first page that names no next page may have more.
      const said = (json as { has_more?: unknown } | undefined)?.has_more;
      w.endKnown = said === false || rows.length !== o.limit || w.pages > 1;
      return w;
    }
    query = next;
    const enough = w.pages >= (o.minPages ?? 1);
    if (lookFor.size > 0 && found.size === lookFor.size && extra < 0) extra = o.extraPages ?? 0;
    if (extra === 0 && enough) {
      w.stoppedBy = 'found';
      return w;
    }
    if (extra > 0) extra--;
    if (o.before !== undefined && w.newestFirst && oldest < o.before && enough) {
      w.stoppedBy = 'passed';
      return w;
    }
  }
  return w;
}

/** `12 pages (limit 2), stopped: found` — what the walk read, for a probe or a failure. */
export const walkText = (w: TicketWalk, limit: number): string =>
  `${w.pages} pages (limit ${limit}), ${w.seen.length} tickets, stopped: ${w.stoppedBy}`;
