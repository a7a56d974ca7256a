/** Readings of the message gap (U9): who may add what, and what it is taken for. */
import type { Reading } from './reading.ts';

export interface MessageBehaviour {
  /**
   * U9: a message `{author: customer, internal: true}` — `reject` (422: only agents write internal
   * notes) or take it as the `reply` of a customer it is (customer.replied, ticket.replied).
   */
  customerNote: 'reject' | 'reply';
  /** U9: `internal: true` makes an internal note; false: the API has none, every message is public. */
  internalNotes: boolean;
  /** U9, U12: an internal note also fires ticket.replied (a message was added, if not a reply). */
  noteFiresReplied: boolean;
}

export const MESSAGE_DEFAULTS: MessageBehaviour = {
  customerNote: 'reject',
  internalNotes: true,
  noteFiresReplied: false,
};

export const MESSAGE_READINGS: Reading<MessageBehaviour>[] = [
  {
    name: 'U9=customer-note-is-reply',
    gap: 'U9',
    does: "accepts a customer's internal note as the customer's reply: 201, stored as sent, and it fires customer.replied and ticket.replied",
    set: { customerNote: 'reply' },
    shows: ['validation.status-422'],
  },
  {
    name: 'U9=notes-fire-replied',
    gap: 'U9',
    does: 'an internal note fires ticket.replied besides ticket.note_added: a message was added',
    set: { noteFiresReplied: true },
    shows: ['probe:U12'],
  },
  {
    name: 'U9=no-internal-notes',
    gap: 'U9',
    does: 'has no internal notes in the API: `internal` is ignored, every message is stored public and fires a reply’s events',
    set: { internalNotes: false },
    shows: ['tickets.message-stored'],
  },
];
