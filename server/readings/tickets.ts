/** Readings of the ticket gaps: statuses, lists, create, update, close, limits (U1–U8, U26). */
import type { Reading } from './reading.ts';

export interface TicketBehaviour {
  /**
   * U26: our assumed input limits — field lengths and counts of the spec's schemas (subject ≤ 255,
   * ≤ 50 tags, non-empty strings, …) and a 1 MiB request body (413). Off: accepted as sent.
   */
  sizeLimits: boolean;
  /** U6: an update with a field of the wrong type — `reject` (422) or `ignore` that field. */
  wrongTypedUpdate: 'reject' | 'ignore';
}

export const TICKET_DEFAULTS: TicketBehaviour = {
  sizeLimits: true,
  wrongTypedUpdate: 'reject',
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
    name: 'U6=ignore-wrong-types',
    gap: 'U6',
    does: 'an update ignores a field of the wrong type and applies the rest (a value of the right type it cannot store is still a 422)',
    set: { wrongTypedUpdate: 'ignore' },
    shows: ['validation.status-422'],
  },
];
