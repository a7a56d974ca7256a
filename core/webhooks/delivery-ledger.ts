/**
 * The delivery ledger: every API action of a run that can fire a webhook event (a 2xx answer to
 * create, message, update, close or macro apply, with whose key it was sent and the ticket as
 * the answer showed it), and the matching of every captured delivery to the action that caused
 * it. What a delivery is about then decides which rule it is held to
 * (core/checks/catalogue/delivery-about.ts):
 *  - a ticket another workspace's key created: isolation is broken;
 *  - a ticket the run never touched: someone else's (shared staging), reported as observed;
 *  - a ticket of the run: the delivery of a documented event must match one action that fires
 *    it (one delivery per action and endpoint; retries — the same delivery id — count once), its
 *    `ticket` must show what the API showed at that point and its `customer` the requester.
 * Work is linear in actions + deliveries (maps by ticket and endpoint).
 */
import type { Assumption } from '../checks/types.ts';
import type { Exchange } from '../http/exchange.ts';
import { type ActionKind, causeDocumented, firing, type ViewAt } from './action-events.ts';
import { type CapturedDelivery, deliveryJson } from './capture-receiver.ts';
import { utf8JsonBody } from './json-body.ts';

/** The ticket fields a webhook payload shares with the API representation. */
export interface TicketView {
  id: string;
  subject?: string;
  status?: string;
  priority?: string;
}

/** `own`: the workspace under test (HARNESS_API_KEY's); `other`: HARNESS_OTHER_WORKSPACE_KEY's. */
export type LedgerWorkspace = 'own' | 'other';

export interface LedgerAction {
  /** Epoch ms the answer arrived: orders the actions on one ticket. */
  at: number;
  ticketId: string;
  workspace: LedgerWorkspace;
  kind: ActionKind;
  /** The request, for the report: `POST /v1/tickets/{id}/close`. */
  operation: string;
  /** The ticket as the action's answer showed it, when the answer is a ticket. */
  view?: TicketView;
  /** The requester a creation asked for: the ticket's customer. */
  requester?: { email?: string; name?: string };
  /** An update that set the status to closed, or a macro that left the ticket closed. */
  closes?: boolean;
  /** Playwright project that acted (one per fault in the detection matrix). */
  project?: string;
  /**
   * When `kind` was read from fields the docs do not give (a message's `author` and `internal`,
   * U9) and the answer did not show it: why, and the kinds a correct deployment may take the
   * action for instead. An event only those explain is an assumption mismatch, not a failure.
   */
  kindAssumed?: { why: string; others: ActionKind[] };
}

const MESSAGE_KINDS: readonly ActionKind[] = ['agent-reply', 'customer-reply', 'note'];

const messageKind = (author: unknown, internal: unknown): ActionKind =>
  internal === true ? 'note' : author === 'customer' ? 'customer-reply' : 'agent-reply';

/**
 * What a message action is, and how sure: the answer's own `author` and `internal` (the target
 * says what it stored) decide it, but for a customer's internal note, which the docs place in
 * neither "internal note" nor "customer reply" alone; else the request's fields, which are ours (U9).
 */
function messageAction(
  body: Record<string, unknown>,
  answer: unknown,
  operation: string,
): Pick<LedgerAction, 'kind' | 'kindAssumed'> {
  const shown = (answer ?? {}) as Record<string, unknown>;
  const observed =
    (shown.author === 'agent' || shown.author === 'customer') &&
    typeof shown.internal === 'boolean';
  const [author, internal] = observed
    ? [shown.author, shown.internal]
    : [body.author, body.internal];
  const kind = messageKind(author, internal);
  if (observed && !(author === 'customer' && internal === true)) return { kind };
  const why = observed
    ? `${operation} stored an internal note by a customer, which the docs call neither an internal note nor a customer reply alone`
    : `${operation} was taken for a ${kind} by its fields author and internal, which are ours (the message payload is not shown); its answer does not say what was stored`;
  return {
    kind,
    kindAssumed: {
      why,
      others: observed ? ['customer-reply'] : MESSAGE_KINDS.filter((k) => k !== kind),
    },
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function parseBody(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

function viewOf(json: unknown): TicketView | undefined {
  const t = json as Record<string, unknown> | undefined;
  const id = str(t?.id);
  if (!id) return undefined;
  const view: TicketView = { id };
  for (const k of ['subject', 'status', 'priority'] as const) {
    const v = str(t?.[k]);
    if (v !== undefined) view[k] = v;
  }
  return view;
}

/** The ticket id in a path ending in /tickets/{id}[/close|/messages]. */
function pathTicket(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const m = /\/tickets\/([^/]+)(?:\/(?:close|messages))?\/?$/.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/** Whose workspace an exchange acted in: the other workspace's key (compared, never kept), else ours. */
export function ledgerWorkspace(ex: Exchange, otherKey: string | undefined): LedgerWorkspace {
  return otherKey !== undefined && ex.request.headers.authorization === `Bearer ${otherKey}`
    ? 'other'
    : 'own';
}

/**
 * The action an exchange performed, when it can fire an event: a 2xx answer to one of the
 * ticket writes of the spec. `workspace`: whose key sent it.
 */
export function ledgerActionOf(
  ex: Exchange,
  workspace: LedgerWorkspace,
  at = Date.now(),
): LedgerAction | undefined {
  const status = ex.response?.status;
  const op = ex.operation;
  if (!op || status === undefined || status < 200 || status > 299) return undefined;
  const body = parseBody(ex.request.body);
  const answer = ex.response?.json;
  const operation = `${op.method.toUpperCase()} ${op.template}`;
  const base = { at, workspace, operation };
  switch (op.operationId) {
    case 'createTicket': {
      const view = viewOf(answer);
      if (!view) return undefined;
      const r = body.requester as Record<string, unknown> | undefined;
      return {
        ...base,
        ticketId: view.id,
        kind: 'create',
        view,
        requester: { email: str(r?.email), name: str(r?.name) },
      };
    }
    case 'addMessage': {
      const ticketId = pathTicket(ex.request.url);
      if (!ticketId) return undefined;
      return { ...base, ticketId, ...messageAction(body, answer, operation) };
    }
    case 'updateTicket':
    case 'closeTicket': {
      const ticketId = pathTicket(ex.request.url);
      if (!ticketId) return undefined;
      const view = viewOf(answer);
      const kind = op.operationId === 'closeTicket' ? 'close' : 'update';
      return {
        ...base,
        ticketId,
        kind,
        ...(view ? { view } : {}),
        ...(kind === 'update' && (body.status === 'closed' || view?.status === 'closed')
          ? { closes: true }
          : {}),
      };
    }
    case 'applyMacro': {
      const ticketId = str(body.ticket_id);
      if (!ticketId) return undefined;
      const view = viewOf(answer);
      return {
        ...base,
        ticketId,
        kind: 'macro',
        ...(view ? { view } : {}),
        ...(view?.status === 'closed' ? { closes: true } : {}),
      };
    }
    default:
      return undefined;
  }
}

/** A captured delivery and the endpoint (receiver path) it arrived at. */
export interface ArrivedDelivery {
  endpoint: string;
  delivery: CapturedDelivery;
  /** Project of the worker whose receiver captured it (per-worker receivers). */
  project?: string;
}

/** What a delivery is about, and what it is held to. */
export interface DeliveryMatch extends ArrivedDelivery {
  event?: string;
  ticketId?: string;
  /**
   * `own`: a ticket of the workspace under test the run acted on; `other-workspace`: one another
   * workspace's key created; `unknown`: a ticket the run never touched; `unreadable`: no event or
   * ticket id to tell; `duplicate`: a delivery sent again after the receiver took it.
   */
  about: 'own' | 'other-workspace' | 'unknown' | 'unreadable' | 'duplicate';
  /** The payload read as UTF-8 JSON (absent when it is not: the Content-Type rule's failure). */
  payload?: { ticket?: unknown; customer?: unknown };
  /** For a documented event about an own ticket: which action fired it, if any. */
  cause?: {
    action?: LedgerAction;
    /** The ticket as the API showed it when `action` fired the event (the fields it can know). */
    expected?: Partial<TicketView>;
    /** Which view of the ticket `expected` is (action-events.ts). */
    viewAt?: ViewAt;
    /** How many of the run's actions on the ticket fire this event. */
    firing: number;
    /** This is the nth delivery of this event about this ticket at this endpoint. */
    nth: number;
    /** The run's actions on the ticket, in order. */
    actions: string[];
    /** The action fired it only as the kind a target may take it for instead (its `kindAssumed`). */
    leansOn?: Assumption;
  };
  /** The requester the run created the ticket with. */
  requester?: { email?: string; name?: string };
}

/** The fields of `expected` that `got` (a payload's ticket) shows otherwise. */
export function ticketDifferences(
  expected: Partial<TicketView>,
  got: unknown,
): Array<{ field: string; expected: string; got: unknown }> {
  if (!got || typeof got !== 'object') return [];
  const t = got as Record<string, unknown>;
  const out: Array<{ field: string; expected: string; got: unknown }> = [];
  for (const [field, want] of Object.entries(expected))
    if (want !== undefined && field in t && t[field] !== want)
      out.push({ field, expected: want, got: t[field] });
  return out;
}

function expectedView(
  acts: LedgerAction[],
  i: number,
  at: ViewAt,
): Partial<TicketView> | undefined {
  const a = acts[i]!;
  let before: TicketView | undefined;
  for (let j = i - 1; j >= 0 && !before; j--) before = acts[j]!.view;
  if (at === 'after') return a.view;
  if (at === 'before') {
    if (!before) return { id: a.ticketId };
    const { status: _left, ...rest } = before;
    return rest;
  }
  const known = a.view ?? before;
  return { id: a.ticketId, ...(known?.subject !== undefined ? { subject: known.subject } : {}) };
}

const describeAction = (a: LedgerAction) =>
  `${a.operation}${a.kind.endsWith('reply') || a.kind === 'note' ? ` (${a.kind})` : ''}${a.workspace === 'other' ? ' with the other workspace’s key' : ''}`;

/**
 * Matches every delivery to what it is about. Deliveries are taken in arrival order; at each
 * endpoint a delivery id seen before (or, without one, the same bytes) is a retry and is skipped
 * while no copy of it was answered 2xx; a delivery id sent again after the receiver took it is a
 * `duplicate` (the same bytes without an id may be a second event: counted as one).
 * Among the actions that fire its event, a delivery takes the first one not yet taken at its
 * endpoint whose view it shows exactly, else the first one not yet taken (deliveries of one
 * ticket may arrive out of order).
 */
export function matchDeliveries(
  actions: readonly LedgerAction[],
  arrived: readonly ArrivedDelivery[],
): DeliveryMatch[] {
  const byTicket = new Map<string, LedgerAction[]>();
  for (const a of actions) {
    const list = byTicket.get(a.ticketId) ?? [];
    list.push(a);
    byTicket.set(a.ticketId, list);
  }
  for (const list of byTicket.values()) list.sort((x, y) => x.at - y.at);
  /** Per endpoint and delivery: whether a copy of it was answered 2xx. */
  const took = new Map<string, boolean>();
  const taken = new Map<string, Set<number>>();
  const counted = new Map<string, number>();
  const out: DeliveryMatch[] = [];
  const ordered = [...arrived].sort((x, y) => x.delivery.receivedAt - y.delivery.receivedAt);
  for (const a of ordered) {
    const d = a.delivery;
    const id = d.headers['x-service-delivery'];
    const once = `${a.endpoint}\u0000${id ?? d.raw.toString('base64')}`;
    const earlier = took.get(once);
    took.set(once, earlier === true || (d.answered >= 200 && d.answered < 300));
    if (earlier === false) continue;
    const lenient = deliveryJson(d) as { event?: unknown; ticket?: { id?: unknown } } | undefined;
    const event = str(lenient?.event);
    const ticketId = str(lenient?.ticket?.id);
    if (earlier === true && id !== undefined) {
      // Filed with the project that acted on its ticket, as the first copy is.
      const acts = ticketId ? byTicket.get(ticketId) : undefined;
      const project = acts?.find((x) => x.kind === 'create')?.project ?? acts?.[0]?.project;
      out.push({
        ...a,
        ...(project ? { project } : {}),
        about: 'duplicate',
        ...(event ? { event } : {}),
        ...(ticketId ? { ticketId } : {}),
      });
      continue;
    }
    if (!event || !ticketId) {
      out.push({ ...a, about: 'unreadable', ...(event ? { event } : {}) });
      continue;
    }
    const body = utf8JsonBody(d.raw);
    const payload =
      body.ok && body.json && typeof body.json === 'object'
        ? (body.json as DeliveryMatch['payload'])
        : undefined;
    const read = { event, ticketId, ...(payload ? { payload } : {}) };
    const acts = byTicket.get(ticketId);
    if (!acts) {
      out.push({ ...a, ...read, about: 'unknown' });
      continue;
    }
    const created = acts.find((x) => x.kind === 'create');
    const owner = (created ?? acts[0]!).workspace;
    const project = created?.project ?? acts[0]!.project ?? a.project;
    const at = { ...a, ...(project ? { project } : {}), ...read };
    if (owner === 'other') {
      out.push({ ...at, about: 'other-workspace' });
      continue;
    }
    const requester = created?.requester;
    const match: DeliveryMatch = { ...at, about: 'own', ...(requester ? { requester } : {}) };
    if (causeDocumented(event)) {
      const key = `${a.endpoint}\u0000${ticketId}\u0000${event}`;
      const used = taken.get(key) ?? new Set<number>();
      taken.set(key, used);
      const nth = (counted.get(key) ?? 0) + 1;
      counted.set(key, nth);
      // The actions that fire it as what the run took them for; failing those, as what a
      // target may take an action of assumed kind for (an assumption mismatch, not a cause).
      const firingAs = (alternative: boolean) =>
        acts.flatMap((x, i) => {
          const kinds = alternative ? (x.kindAssumed?.others ?? []) : [x.kind];
          const view = kinds.map((k) => firing(k, event, x.closes)).find(Boolean);
          return view ? [{ i, viewAt: view, expected: expectedView(acts, i, view) }] : [];
        });
      const candidates = firingAs(false);
      const pickFrom = (cs: typeof candidates) => {
        const free = cs.filter((c) => !used.has(c.i));
        return (
          free.find(
            (c) => c.expected && ticketDifferences(c.expected, payload?.ticket).length === 0,
          ) ?? free[0]
        );
      };
      let pick = pickFrom(candidates);
      let leansOn: Assumption | undefined;
      if (!pick) {
        pick = pickFrom(firingAs(true));
        const why = pick && acts[pick.i]!.kindAssumed?.why;
        if (why) leansOn = { gap: 'U9', why: `${why}; taken otherwise, it fires ${event}` };
      }
      if (pick) used.add(pick.i);
      match.cause = {
        ...(pick
          ? {
              action: acts[pick.i]!,
              viewAt: pick.viewAt,
              ...(pick.expected ? { expected: pick.expected } : {}),
            }
          : {}),
        firing: candidates.length,
        nth,
        actions: acts.map(describeAction),
        ...(leansOn ? { leansOn } : {}),
      };
    }
    out.push(match);
  }
  return out;
}
