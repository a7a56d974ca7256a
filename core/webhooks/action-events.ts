/**
 * Which webhook events an API action fires, and what the ticket looks like when each fires.
 *
 * Documented (Events): `ticket.created` when "a new ticket enters the queue", `ticket.replied`
 * when "an agent or a customer adds a message", `ticket.closed` when "a ticket is resolved or
 * closed", `customer.replied` for "a customer reply". Those four carry the documented envelope,
 * so a delivery of one of them is held to the action that caused it (core/webhooks/
 * delivery-ledger.ts). The other identifiers (U12), the transitions (U1) and macros (U10) are
 * assumed: listed so an action's assumed side effects are known, never judged as a cause.
 */
import { ENVELOPE_EVENTS } from '../checks/catalogue/webhooks.ts';

/** What an API action did to a ticket, as far as webhooks go. */
export type ActionKind =
  | 'create'
  | 'agent-reply'
  | 'customer-reply'
  | 'note'
  | 'update'
  | 'close'
  | 'macro';

/**
 * Which of the ticket's fields a payload fired by an action must show as the API shows them:
 *  - `after`: the ticket after the action — the action's own answer shows it (create, update,
 *    close, macro apply);
 *  - `before`: id, subject and priority as before the action, whose answer (a message) does not
 *    show the ticket; the status is left out because a reply may move it (U1);
 *  - `identity`: id and subject only — a side effect inside the action whose order the docs do
 *    not give (a macro's reply, an automation's auto-reply).
 */
export type ViewAt = 'after' | 'before' | 'identity';

/** The events an action of `kind` may fire, each with the view its payload shows. */
const FIRES: Record<ActionKind, ReadonlyArray<readonly [event: string, view: ViewAt]>> = {
  // An auto-reply configured in the workspace (or a first message) may follow a creation: an
  // agent (or the customer) adding a message, which the docs say fires ticket.replied.
  create: [
    ['ticket.created', 'after'],
    ['ticket.replied', 'identity'],
  ],
  'agent-reply': [
    ['ticket.replied', 'before'],
    ['agent.replied', 'before'],
  ],
  'customer-reply': [
    ['ticket.replied', 'before'],
    ['customer.replied', 'before'],
    ['ticket.status_changed', 'identity'],
  ],
  // Whether an internal note is "a message" of ticket.replied is not said: allowed, not required.
  note: [
    ['ticket.note_added', 'before'],
    ['ticket.replied', 'before'],
  ],
  update: [
    ['ticket.status_changed', 'after'],
    ['ticket.closed', 'after'],
  ],
  close: [
    ['ticket.closed', 'after'],
    ['ticket.status_changed', 'after'],
  ],
  macro: [
    ['macro.applied', 'after'],
    ['ticket.replied', 'identity'],
    ['agent.replied', 'identity'],
    ['ticket.status_changed', 'identity'],
    ['ticket.closed', 'after'],
  ],
};

/** Whether the docs give `event`'s trigger and payload (its deliveries are judged by their cause). */
export function causeDocumented(event: string): boolean {
  return ENVELOPE_EVENTS.includes(event);
}

/**
 * The view a payload of `event` shows when fired by an action of `kind` (undefined: the action
 * does not fire it). `closes`: an update or a macro that left the ticket closed — only such an
 * update or macro fires ticket.closed (a macro's other actions are not known to the harness).
 */
export function firing(kind: ActionKind, event: string, closes = false): ViewAt | undefined {
  if ((kind === 'update' || kind === 'macro') && event === 'ticket.closed' && !closes)
    return undefined;
  return FIRES[kind].find(([e]) => e === event)?.[1];
}
