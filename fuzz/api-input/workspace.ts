/**
 * The workspace as the API input fuzz observes it: its ticket count (the summary report, else a
 * walk of the list), a ticket as GET reads it, and fresh target tickets for updates and messages.
 */
import { redact } from '../../core/redact.ts';
import type { Answer, Http } from '../shared/http.ts';

type Get = (path: string) => Promise<Answer>;

export interface Workspace {
  /** How the ticket count is read. */
  countedVia: 'reports-summary' | 'list-walk';
  count(): Promise<number>;
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

async function countViaList(get: Get): Promise<number> {
  let n = 0;
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const ex = await get(`/v1/tickets?${q}`);
    const body = ex.json as { data?: unknown[]; next_cursor?: unknown } | undefined;
    if (ex.status !== 200 || !Array.isArray(body?.data))
      throw new Error(
        `api input fuzz: cannot count tickets (the list ${ex.status === undefined ? `got no answer: ${ex.error ?? 'connection lost'}` : `answered ${ex.status}`})`,
      );
    n += body.data.length;
    if (typeof body.next_cursor !== 'string' || body.next_cursor === '') return n;
    cursor = body.next_cursor;
  }
  throw new Error('api input fuzz: cannot count tickets (the list does not end)');
}

export async function openWorkspace(http: Http, auth: Record<string, string>): Promise<Workspace> {
  const get: Get = (path) => http.send('GET', path, { headers: auth });
  const countedVia = (await countViaSummary(get)) === undefined ? 'list-walk' : 'reports-summary';
  return {
    countedVia,
    count: async () =>
      countedVia === 'reports-summary'
        ? ((await countViaSummary(get)) ?? (await countViaList(get)))
        : countViaList(get),
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
