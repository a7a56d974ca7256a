/**
 * The workspace as the API input fuzz observes it: its ticket count (the summary report, else a
 * walk of the list), a ticket as GET reads it, and fresh target tickets for updates and messages.
 * A walk is bounded (LIST_WALK_PAGES pages of 100): a long-lived staging without the summary
 * report holds more than that, and a count per case would read all of it each time — there the
 * count is not taken (`not-counted`) and the creation cases are judged on their answers alone.
 */
import { listArray, listNext } from '../../core/http/list-page.ts';
import { redact } from '../../core/redact.ts';
import type { Answer, Http } from '../shared/http.ts';

type Get = (path: string) => Promise<Answer>;

/** How the ticket count is read: the summary report, a bounded walk of the list, or not at all. */
export type CountedVia = 'reports-summary' | 'list-walk' | 'not-counted';

/** The most list pages (of `PAGE`) a count reads. */
export const LIST_WALK_PAGES = 10;
const PAGE = 100;

export interface Workspace {
  /** How the ticket count is read. */
  countedVia: CountedVia;
  /** The count the opening read found (the packed fuzz's first "before": not read twice). */
  opened: number | undefined;
  /** The ticket count; undefined when it is `not-counted`. */
  count(): Promise<number | undefined>;
  /** The ticket's GET body. */
  ticket(id: string): Promise<unknown>;
  /** Creates a ticket to update or add messages to; its id. */
  createTarget(): Promise<string>;
}

const SEED_TICKET = {
  subject: 'api input fuzz target',
  requester: { email: 'fuzz@example.com', name: 'Fuzz Target' },
};

async function countViaSummary(get: Get): Promise<number | undefined> {
  const ex = await get('/v1/reports/summary');
  const total = (ex.json as { tickets?: { total?: unknown } } | undefined)?.tickets?.total;
  return ex.status === 200 && typeof total === 'number' ? total : undefined;
}

/**
 * The count by a walk of the list, whatever its envelope (U4) — or undefined when it cannot be
 * known: the list is longer than the walk's bound, a full page names no next page (where the list
 * ends is not shown), or the list refuses the page size asked (a smaller largest page, U26).
 */
async function countViaList(get: Get): Promise<number | undefined> {
  let n = 0;
  let query: Record<string, string | number | undefined> = { limit: PAGE };
  for (let page = 0; page < LIST_WALK_PAGES; page++) {
    const q = Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]));
    const ex = await get(`/v1/tickets?${new URLSearchParams(q)}`);
    const rows = listArray(ex.json);
    if (ex.status === undefined || ex.status >= 500 || (ex.status === 200 && !rows))
      throw new Error(
        `api input fuzz: cannot count tickets (the list ${ex.status === undefined ? `got no answer: ${ex.error ?? 'connection lost'}` : `answered ${ex.status}${rows ? '' : ' without a list'}`})`,
      );
    if (ex.status !== 200 || !rows) return undefined;
    n += rows.length;
    const next = listNext(ex.json, ex.response?.headers.link, query);
    if (!next) {
      const last = (ex.json as { has_more?: unknown } | undefined)?.has_more === false;
      return last || rows.length !== PAGE || page > 0 ? n : undefined;
    }
    query = next;
  }
  return undefined;
}

export async function openWorkspace(http: Http, auth: Record<string, string>): Promise<Workspace> {
  const get: Get = (path) => http.send('GET', path, { headers: auth });
  let opened = await countViaSummary(get);
  const summary = opened !== undefined;
  if (!summary) opened = await countViaList(get);
  const countedVia: CountedVia = summary
    ? 'reports-summary'
    : opened !== undefined
      ? 'list-walk'
      : 'not-counted';
  return {
    countedVia,
    opened,
    count: async () =>
      countedVia === 'reports-summary'
        ? ((await countViaSummary(get)) ?? (await countViaList(get)))
        : countedVia === 'list-walk'
          ? countViaList(get)
          : undefined,
    ticket: async (id) => {
      const ex = await get(`/v1/tickets/${encodeURIComponent(id)}`);
      // No answer is no observation: "the ticket changed" would blame the input wrongly.
      if (ex.status === undefined)
        throw new Error(`api input fuzz: cannot read ticket ${id} (${ex.error ?? 'no answer'})`);
      return ex.json;
    },
    createTarget: async () => {
      const ex = await http.send('POST', '/v1/tickets', {
        headers: { ...auth, 'content-type': 'application/json' },
        raw: JSON.stringify(SEED_TICKET),
      });
      const id = (ex.json as { id?: unknown } | undefined)?.id;
      if (ex.status === undefined || ex.status >= 300 || typeof id !== 'string')
        throw new Error(
          `api input fuzz: cannot create the target ticket (${ex.status ?? ex.error}): ${redact((ex.response?.bodyText ?? '').slice(0, 200))}`,
        );
      return id;
    },
  };
}
