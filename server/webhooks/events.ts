/**
 * Event kinds the reference deployment emits: the four of the API reference, `customer.replied`
 * from the integration list, and the identifiers assumed for the unnamed triggers (U12).
 */
export const DOCUMENTED_EVENTS = [
  'ticket.created',
  'ticket.replied',
  'ticket.closed',
  'sla.at_risk',
  'customer.replied',
] as const;

export const ASSUMED_EVENTS = [
  'ticket.status_changed',
  'agent.replied',
  'ticket.note_added',
  'macro.applied',
] as const;

export const WEBHOOK_EVENTS: readonly string[] = [...DOCUMENTED_EVENTS, ...ASSUMED_EVENTS];
