/**
 * What this process created on a target: every answer the one client (client.ts) gets to a
 * creation operation of the spec that names the new object's id. Staging is shared and keeps what
 * a run leaves there (tickets are never deleted), so a run closes or deletes what it created and
 * reports what it could not (core/target/clean-up.ts) — including what a fuzzer created by
 * accident, on a target that accepts what it does not validate.
 */
import type { Exchange } from './exchange.ts';

export type CreatedKind = 'ticket' | 'contact' | 'rule';

export interface CreatedObject {
  kind: CreatedKind;
  id: string;
  /** Created with the other workspace's key (HARNESS_OTHER_WORKSPACE_KEY): cleaned with it too. */
  workspace?: 'other';
}

/** The spec's creation operations and what each leaves on the target. */
const CREATION = new Map<string, CreatedKind>([
  ['createTicket', 'ticket'],
  ['createContact', 'contact'],
  ['createRule', 'rule'],
]);

/** The object an exchange created: a 2xx answer to a creation operation naming an id. */
export function createdBy(ex: Exchange): CreatedObject | undefined {
  const kind = CREATION.get(ex.operation?.operationId ?? '');
  const r = ex.response;
  if (!kind || !r || r.status < 200 || r.status > 299) return undefined;
  const id = (r.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id.length > 0 ? { kind, id } : undefined;
}

const ledger: Array<CreatedObject & { baseUrl: string }> = [];

/** Tickets the deployment last answered closed, by target and id (see `ticketStateBy`). */
const closedTickets = new Set<string>();
const ticketKey = (baseUrl: string, id: string) => `${baseUrl}\u0000${id}`;

/** Each ticket's size as the deployment last answered it, by target and id (`ticketBytes`). */
const ticketSizes = new Map<string, TicketSize>();

/** A ticket's size as last answered, and — when it is larger than lists should carry — its cut. */
export interface TicketSize {
  bytes: number;
  /** An update that cuts what a list shows of it to a few KB (`LIST_ROW_BYTES`). */
  cut?: { subject?: string; tags?: string[] };
}

/**
 * The most bytes a ticket the run leaves may carry into a list answer: a few KB. A deployment
 * without limits keeps a test's 10 000-character subject or thousand tags whole, and every later
 * list answer would carry them, run after run (v1 deletes no ticket).
 */
export const LIST_ROW_BYTES = 4096;

/**
 * Notes what `ex` created on the target at `baseUrl`, if anything, whether it left a ticket
 * closed (called by the client): the clean-up closes only what is not closed already — and the
 * size of the ticket it answered.
 */
export function noteCreated(baseUrl: string, ex: Exchange): void {
  const made = createdBy(ex);
  if (made) ledger.push({ ...made, baseUrl });
  const state = ticketStateBy(ex);
  if (state?.closed) closedTickets.add(ticketKey(baseUrl, state.id));
  else if (state) closedTickets.delete(ticketKey(baseUrl, state.id));
  const size = ticketSizeBy(ex);
  if (size) ticketSizes.set(ticketKey(baseUrl, size.id), size);
}

/**
 * The bytes of ticket `id` on the target at `baseUrl` as this process last saw it answered (its
 * creation, a read, a write): what every list answer that shows it carries. Undefined: never seen.
 */
export const ticketBytes = (baseUrl: string, id: string): TicketSize | undefined =>
  ticketSizes.get(ticketKey(baseUrl, id));

/**
 * A ticket's size by an answer that is its representation: a 2xx to its creation, or to a read or
 * write of /v1/tickets/{id} whose body is the ticket with that id. Lists are not: a row's size is
 * its ticket's, read from where the ticket itself was answered.
 */
export function ticketSizeBy(ex: Exchange): (TicketSize & { id: string }) | undefined {
  const r = ex.response;
  if (!r || r.status < 200 || r.status > 299) return undefined;
  const t = (r.json ?? {}) as { id?: unknown; subject?: unknown; tags?: unknown };
  const id = t.id;
  if (typeof id !== 'string') return undefined;
  if (ex.operation?.operationId !== 'createTicket') {
    const m = /\/v1\/tickets\/([^/]+)(?:\/close)?$/.exec(
      new URL(ex.request.url, 'http://x').pathname,
    );
    if (!m || decodeURIComponent(m[1]!) !== id) return undefined;
  }
  const bytes = Buffer.byteLength(r.bodyText);
  return { id, bytes, ...(bytes > LIST_ROW_BYTES ? { cut: cutOf(t.subject, t.tags) } : {}) };
}

/**
 * What to send to cut a ticket's subject and tags to a few KB: the subject's first 100 code points
 * (the run's tag leads it), the first ten tags of at most 64 characters (the run's come first).
 */
function cutOf(subject: unknown, tags: unknown): TicketSize['cut'] {
  const cut: NonNullable<TicketSize['cut']> = {};
  if (typeof subject === 'string' && subject.length > 100)
    cut.subject = `${[...subject].slice(0, 100).join('')}…`;
  if (Array.isArray(tags) && (tags.length > 10 || tags.some((x) => String(x).length > 64)))
    cut.tags = tags
      .filter((x): x is string => typeof x === 'string' && x.length <= 64)
      .slice(0, 10);
  return cut;
}

/**
 * Whether this process last saw ticket `c` answered closed on the target at `baseUrl`: closing it
 * again would be one more request on a shared key.
 */
export const closedAlready = (c: CreatedObject, baseUrl: string): boolean =>
  c.kind === 'ticket' && closedTickets.has(ticketKey(baseUrl, c.id));

/** A mark in the ledger: `createdSince(mark, …)` gives what was created after it. */
export const ledgerMark = (): number => ledger.length;

/**
 * What this process created since `mark`, oldest first, once each: on the target at `baseUrl`, or
 * anywhere (undefined: the embedded deployments this process started).
 */
export function createdSince(mark: number, baseUrl?: string): CreatedObject[] {
  const seen = new Set<string>();
  const out: CreatedObject[] = [];
  for (const c of ledger.slice(mark)) {
    const key = `${c.kind}\u0000${c.id}`;
    if ((baseUrl !== undefined && c.baseUrl !== baseUrl) || seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: c.kind, id: c.id });
  }
  return out;
}

/**
 * Whether a write left a ticket closed, by the deployment's own answer: the clean-up needs not
 * close again what a test closed last (each close is a request on a shared key). A 2xx
 * close did what the clean-up would do, whatever status it left (`resolved`: U1), unless its
 * answer shows the ticket still open; another 2xx write on a ticket answered with the ticket says
 * its status; any other write on it (a message, a macro applied) may reopen it, so it counts as open. Reads and refused writes change nothing.
 */
export function ticketStateBy(ex: Exchange): { id: string; closed: boolean } | undefined {
  const r = ex.response;
  const method = ex.request.method.toUpperCase();
  if (!r || r.status < 200 || r.status > 299 || method === 'GET' || method === 'HEAD')
    return undefined;
  const path = ex.operation?.template ?? '';
  if (path.startsWith('/v1/macros/') && path.endsWith('/apply')) {
    const id = bodyTicketId(ex.request.body);
    return id ? { id, closed: false } : undefined;
  }
  const m = /\/v1\/tickets\/([^/?#]+)/.exec(new URL(ex.request.url, 'http://x').pathname);
  if (!m) return undefined;
  const id = decodeURIComponent(m[1]!);
  const t = r.json as { id?: unknown; status?: unknown } | undefined;
  const shown = t?.id === id ? t.status : undefined;
  const closed =
    ex.operation?.operationId === 'closeTicket' ? shown !== 'open' : shown === 'closed';
  return { id, closed };
}

const bodyTicketId = (body?: string): string | undefined => {
  try {
    const id = (JSON.parse(body ?? '') as { ticket_id?: unknown })?.ticket_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};
