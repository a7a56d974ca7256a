/** Readings of the message gap (U9): who may add what, and what it is taken for. */
import type { Reading } from './reading.ts';

export interface MessageBehaviour {
  /**
   * U9: a message `{author: customer, internal: true}` — `reject` (422: only agents write internal
   * notes) or take it as the `reply` of a customer it is (customer.replied, ticket.replied).
   */
  customerNote: 'reject' | 'reply';
}

export const MESSAGE_DEFAULTS: MessageBehaviour = {
  customerNote: 'reject',
};

export const MESSAGE_READINGS: Reading<MessageBehaviour>[] = [
  {
    name: 'U9=customer-note-is-reply',
    gap: 'U9',
    does: "accepts a customer's internal note as the customer's reply: 201, stored as sent, and it fires customer.replied and ticket.replied",
    set: { customerNote: 'reply' },
    shows: ['validation.status-422'],
  },
];
