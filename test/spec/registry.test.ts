import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate, validatorFor } from '../../core/schemas/registry.ts';

const ticket = {
  id: 't_1',
  subject: 'Printer on fire',
  status: 'open',
  priority: 'high',
  requester: { email: 'ada@example.com', name: 'Ada' },
  sla: { first_response_due: '2026-11-22T10:00:00Z' },
  created_at: '2026-11-22T09:00:00Z',
};

test('a well-formed ticket validates', () => {
  assert.deepEqual(validate('Ticket', ticket), []);
});

test('a timestamp without a UTC designator is rejected', () => {
  const issues = validate('Ticket', { ...ticket, created_at: '2026-11-22T09:00:00+01:00' });
  assert.ok(
    issues.some((i) => i.pointer === '/created_at'),
    JSON.stringify(issues),
  );
});

test('a missing requester email is reported by field name', () => {
  const issues = validate('TicketCreate', { subject: 's', requester: { name: 'n' } });
  assert.deepEqual(
    issues.map((i) => [i.field, i.keyword]),
    [['requester.email', 'required']],
  );
});

test('webhook payload schemas resolve cross-file refs', () => {
  const payload = {
    event: 'customer.replied',
    ticket: {
      id: 't',
      subject: 's',
      status: 'open',
      priority: 'low',
      url: 'https://x.example/t/1',
    },
    customer: { name: 'Ada', email: 'ada@example.com' },
    message: { id: 'm', author: 'customer', body: 'hi', internal: false },
  };
  assert.deepEqual(validate('CustomerRepliedEvent', payload), []);
  assert.ok(validate('CustomerRepliedEvent', { ...payload, event: 'ticket.closed' }).length > 0);
});

test('an unknown schema name is a clear error', () => {
  assert.throws(() => validatorFor('Nope'), /no schema named 'Nope'/);
});
