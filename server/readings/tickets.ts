/**
 * Readings of the ticket gaps: statuses and transitions, default priority, the requester, create,
 * update, close, get, field limits and the SLA targets (U1–U3, U5–U8, U26, SLA).
 */
import type { Reading } from './reading.ts';

type Priority = 'low' | 'normal' | 'high';

export interface TicketBehaviour {
  /**
   * U26: our assumed input limits — field lengths and counts of the spec's schemas (subject ≤ 255,
   * ≤ 50 tags, non-empty strings, …) and a 1 MiB request body (413). Off: accepted as sent.
   */
  sizeLimits: boolean;
  /** U26: the longest subject, in characters (with `sizeLimits`; 255 is the spec's). */
  subjectMaxLength: number;
  /** U6: an update with a field of the wrong type — `reject` (422) or `ignore` that field. */
  wrongTypedUpdate: 'reject' | 'ignore';
  /**
   * U6: the media types an update takes — `merge-patch-or-json` (both, as the spec lists) or
   * `json` (application/merge-patch+json is a 415).
   */
  updateMedia: 'merge-patch-or-json' | 'json';
  /**
   * U1: the status the close operation leaves — `closed`, or `resolved` (a status of its own
   * before `closed`, which an update still sets; the docs' ticket.closed fires for either).
   */
  closeStatus: 'closed' | 'resolved';
  /** U1: a customer's reply re-opens a pending ticket (`true`), or leaves it pending. */
  customerReplyReopens: boolean;
  /** U2: the priority of a ticket created without one. */
  defaultPriority: Priority;
  /** U3: which requester keys a creation must carry — `email`, or `email-and-name`. */
  requesterRequires: 'email' | 'email-and-name';
  /** U5: a creation answers `201` with a Location header, or `200` without one. */
  createAnswer: '201-location' | '200';
  /** U7: an update `{status: closed}` closes (`true`), or is a 422: closing is the close operation's. */
  patchCloses: boolean;
  /** U7: closing a closed ticket — `same` (200, the ticket unchanged) or `conflict` (409). */
  closeClosed: 'same' | 'conflict';
  /** U8: a get answers the `ticket` itself, or `wrapped` in `{ticket: …}` (as Zendesk's API does). */
  getAnswer: 'ticket' | 'wrapped';
  /** SLA: the first response target per priority, in hours (calendar time). */
  slaTargetHours: Readonly<Record<Priority, number>>;
  /** SLA: the share of its target left when a ticket is at risk (sla.at_risk). */
  atRiskLeft: number;
  /** SLA: a priority change recomputes the due time (`true`), or it stays as created. */
  slaRecomputed: boolean;
}

export const TICKET_DEFAULTS: TicketBehaviour = {
  sizeLimits: true,
  subjectMaxLength: 255,
  wrongTypedUpdate: 'reject',
  updateMedia: 'merge-patch-or-json',
  closeStatus: 'closed',
  customerReplyReopens: true,
  defaultPriority: 'normal',
  requesterRequires: 'email',
  createAnswer: '201-location',
  patchCloses: true,
  closeClosed: 'same',
  getAnswer: 'ticket',
  slaTargetHours: { high: 1, normal: 4, low: 24 },
  atRiskLeft: 0.25,
  slaRecomputed: true,
};

export const TICKET_READINGS: Reading<TicketBehaviour>[] = [
  {
    name: 'U26=no-limits',
    gap: 'U26',
    does: 'no body-size limit and no field lengths or counts: every string and list is stored as sent (an email address keeps its 254 characters)',
    set: { sizeLimits: false },
    shows: ['validation.status-422', 'validation.too-large-413'],
  },
  {
    name: 'U26=subject-1000',
    gap: 'U26',
    does: 'subjects of up to 1 000 characters (a 256-character one is accepted, 1 001 is a 422); the other limits as assumed',
    set: { subjectMaxLength: 1000 },
    shows: ['validation.status-422', 'probe:U26'],
  },
  {
    name: 'U6=ignore-wrong-types',
    gap: 'U6',
    does: 'an update ignores a field of the wrong type and applies the rest (a value of the right type it cannot store is still a 422)',
    set: { wrongTypedUpdate: 'ignore' },
    shows: ['validation.status-422'],
  },
  {
    name: 'U6=json-only',
    gap: 'U6',
    does: 'an update takes application/json only: a body sent as application/merge-patch+json is a 415',
    set: { updateMedia: 'json' },
    shows: ['tickets.status-code', 'tickets.merge-patch'],
  },
  {
    name: 'U1=close-resolves',
    gap: 'U1',
    does: 'the close operation leaves the ticket `resolved` (ticket.closed fires), a status of its own; an update may still set `closed`',
    set: { closeStatus: 'resolved' },
    shows: ['tickets.status-transition', 'tickets.idempotent-close', 'exchange.response-schema'],
  },
  {
    name: 'U1=reply-keeps-pending',
    gap: 'U1',
    does: "a customer's reply leaves a pending ticket pending (an agent re-opens it)",
    set: { customerReplyReopens: false },
    shows: ['tickets.status-transition'],
  },
  {
    name: 'U2=default-low',
    gap: 'U2',
    does: 'a ticket created without a priority is low',
    set: { defaultPriority: 'low' },
    shows: ['probe:U2'],
  },
  {
    name: 'U3=name-required',
    gap: 'U3',
    does: 'the requester needs a name as well as an email: a creation without one is a 422',
    set: { requesterRequires: 'email-and-name' },
    shows: ['tickets.status-code', 'probe:U3'],
  },
  {
    name: 'U5=create-200',
    gap: 'U5',
    does: 'a creation answers 200 with the ticket, without a Location header',
    set: { createAnswer: '200' },
    shows: ['tickets.status-code', 'exchange.documented-status', 'probe:U5'],
  },
  {
    name: 'U7=close-twice-409',
    gap: 'U7',
    does: 'closing a closed ticket answers 409 (a conflict problem), the ticket unchanged',
    set: { closeClosed: 'conflict' },
    shows: ['tickets.idempotent-close', 'exchange.documented-status'],
  },
  {
    name: 'U7=patch-cannot-close',
    gap: 'U7',
    does: 'an update `{status: closed}` is a 422: a ticket is closed through the close operation only',
    set: { patchCloses: false },
    shows: ['tickets.status-transition'],
  },
  {
    name: 'U8=get-wrapped',
    gap: 'U8',
    does: 'a get answers the ticket wrapped in `{"ticket": …}`, as Zendesk’s API does; creation, update and close answer it bare',
    set: { getAnswer: 'wrapped' },
    shows: ['tickets.get-matches'],
  },
  {
    name: 'SLA=longer-targets',
    gap: 'SLA',
    does: 'first response targets high 2 h, normal 8 h, low 48 h; at risk when 10 % of the target is left',
    set: { slaTargetHours: { high: 2, normal: 8, low: 48 }, atRiskLeft: 0.1 },
    shows: ['probe:SLA'],
  },
  {
    name: 'SLA=due-fixed-at-creation',
    gap: 'SLA',
    does: 'the first response due time is fixed at creation: a later priority change leaves it',
    set: { slaRecomputed: false },
    shows: ['ticket.sla-recomputed'],
  },
];
