/**
 * Webhook events of the reference deployment: the payload envelope (documented for
 * customer.replied, assumed for the rest — U13) and the emission points of each event.
 */
import type { ServiceContext } from './context.ts';
import { iso } from './represent.ts';
import type { Behaviour } from './readings/index.ts';
import { isDone, type Message, type Ticket } from './store.ts';
import type { ASSUMED_EVENTS, DOCUMENTED_EVENTS } from './webhooks/events.ts';

/** An event the deployment emits: the one list is server/webhooks/events.ts. */
export type EventName = (typeof DOCUMENTED_EVENTS)[number] | (typeof ASSUMED_EVENTS)[number];

/** The wire name of each trigger the docs name without an identifier (U12: our names, or a reading's). */
const UNNAMED: Partial<Record<EventName, keyof Behaviour['eventNames']>> = {
  'ticket.status_changed': 'status',
  'agent.replied': 'agentReply',
  'ticket.note_added': 'note',
  'macro.applied': 'macro',
};

export function emit(
  ctx: ServiceContext,
  trigger: EventName,
  t: Ticket,
  extras: Record<string, unknown> = {},
): void {
  const b = ctx.behaviour;
  const unnamed = UNNAMED[trigger];
  const event = unnamed ? b.eventNames[unnamed] : trigger;
  // sla.at_risk in a shape of its own (U13): the ticket and its SLA, no customer.
  if (trigger === 'sla.at_risk' && b.slaPayload === 'own') {
    const { id, subject, status, priority } = t;
    ctx.dispatcher.emit(t.workspaceId, event, {
      event,
      ticket: { id, subject, status, priority },
      sla: extras.sla,
    });
    return;
  }
  const payload: Record<string, unknown> = {
    event,
    ticket: {
      id: t.id,
      subject: t.subject,
      status: t.status,
      priority: t.priority,
      url: `${ctx.dashboardBaseUrl}/tickets/${encodeURIComponent(t.id)}`,
    },
    // The webhook customer has a required name; a requester without one is named by email (U3).
    customer: { name: t.requester.name ?? t.requester.email, email: t.requester.email },
    // The documented envelope, with each event's extras unless it sends the envelope only (U13).
    ...(b.payloadExtras ? { occurred_at: iso(ctx.clock.now()), ...extras } : {}),
  };
  if (ctx.faults.has('payload-customer-missing')) delete payload.customer;
  if (ctx.faults.has('payload-ticket-url-missing'))
    delete (payload.ticket as Record<string, unknown>).url;
  // FAULT payload-customer-agent: the person acting on the desk instead of the ticket's customer.
  if (ctx.faults.has('payload-customer-agent'))
    payload.customer = { name: 'Support Agent', email: 'agent@desk.example' };
  // FAULT closed-payload-status-open: the ticket as it was before the close was applied.
  if (ctx.faults.has('closed-payload-status-open') && event === 'ticket.closed')
    (payload.ticket as Record<string, unknown>).status = 'open';
  ctx.dispatcher.emit(t.workspaceId, event, payload);
}

export function messagePayload(m: Message): Record<string, unknown> {
  return { id: m.id, author: m.author, body: m.body, internal: m.internal };
}

/**
 * Emits ticket.status_changed for a status transition, and ticket.closed when it resolves or
 * closes the ticket (documented: "a ticket is resolved or closed").
 */
export function emitStatusChange(ctx: ServiceContext, t: Ticket, previous: string): void {
  if (previous === t.status) return;
  emit(ctx, 'ticket.status_changed', t, { previous_status: previous });
  if (isDone(t.status)) emit(ctx, 'ticket.closed', t);
  // FAULT close-delivers-created: closing re-announces the ticket as new.
  if (t.status === 'closed' && ctx.faults.has('close-delivers-created'))
    emit(ctx, 'ticket.created', t);
}
