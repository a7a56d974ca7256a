/** Readings of the webhook gaps: event identifiers, payloads, retries, signature forms (U12–U15). */
import type { Reading } from './reading.ts';

export interface WebhookBehaviour {
  /**
   * U12: the identifiers of the triggers the docs name without one (status change, agent reply,
   * internal note, macro applied); the documented four never change.
   */
  eventNames: Readonly<Record<'status' | 'agentReply' | 'note' | 'macro', string>>;
  /** U13: the other events' payloads — the envelope with each event's extras, or the envelope only. */
  payloadExtras: boolean;
  /** U13: sla.at_risk's payload — the envelope (and extras), or its own `{event, ticket, sla}`. */
  slaPayload: 'envelope' | 'own';
  /** U14: a delivery the receiver did not take (timeout, connection error, 408, 429, 5xx) is retried. */
  retries: boolean;
  /** U14: the header carrying the delivery's stable id. */
  deliveryIdHeader: string;
  /** U15: the signature header form(s) of a delivery — the endpoint's choice, or both always. */
  signatureForms: 'endpoint' | 'both';
}

export const WEBHOOK_DEFAULTS: WebhookBehaviour = {
  eventNames: {
    status: 'ticket.status_changed',
    agentReply: 'agent.replied',
    note: 'ticket.note_added',
    macro: 'macro.applied',
  },
  payloadExtras: true,
  slaPayload: 'envelope',
  retries: true,
  deliveryIdHeader: 'X-Service-Delivery',
  signatureForms: 'endpoint',
};

export const WEBHOOK_READINGS: Reading<WebhookBehaviour>[] = [
  {
    name: 'U12=other-names',
    gap: 'U12',
    does: 'names the undocumented triggers ticket.updated, ticket.agent_replied, ticket.internal_note and ticket.macro_applied',
    set: {
      eventNames: {
        status: 'ticket.updated',
        agentReply: 'ticket.agent_replied',
        note: 'ticket.internal_note',
        macro: 'ticket.macro_applied',
      },
    },
    shows: ['webhook.event-named'],
  },
  {
    name: 'U13=envelope-only',
    gap: 'U13',
    does: 'sends exactly the documented envelope {event, ticket, customer} for every event: no occurred_at, no event extras (ticket.replied without its message)',
    set: { payloadExtras: false },
    shows: ['webhook.event-shape'],
  },
  {
    name: 'U13=sla-own-shape',
    gap: 'U13',
    does: 'sends sla.at_risk as {event, ticket, sla: {first_response_due}}: no customer',
    set: { slaPayload: 'own' },
    shows: ['webhook.event-shape'],
  },
  {
    name: 'U14=no-retries',
    gap: 'U14',
    does: 'sends each delivery once: a receiver that is unavailable misses it',
    set: { retries: false },
    shows: ['webhook.retried-after-5xx'],
  },
  {
    name: 'U14=delivery-id-header',
    gap: 'U14',
    does: 'carries the delivery id in X-Webhook-Id instead of X-Service-Delivery',
    set: { deliveryIdHeader: 'X-Webhook-Id' },
    shows: ['webhook.retried-after-5xx'],
  },
  {
    name: 'U15=always-both',
    gap: 'U15',
    does: 'signs every delivery in both header forms, whichever form the endpoint chose',
    set: { signatureForms: 'both' },
    shows: ['webhook.signature-form'],
  },
];
