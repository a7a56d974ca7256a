/**
 * Which tickets the contract clean-up need not close again (core/http/created-ledger.ts
 * ticketStateBy, contracts/fixtures.ts): a ticket whose last write the deployment answered as
 * closed; any later write on it that may reopen it (a message, a macro, a patch answered open)
 * counts it open again; reads and refused writes change nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Exchange } from '../../core/http/exchange.ts';
import { ticketStateBy } from '../../core/http/created-ledger.ts';
import { matchOperation } from '../../core/spec/operations.ts';

const BASE = 'http://127.0.0.1:9/v1';

function ex(
  method: string,
  path: string,
  status: number,
  json?: unknown,
  body?: unknown,
): Exchange {
  const url = `${BASE}${path}`;
  return {
    request: {
      method,
      url,
      headers: {},
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    response: { status, headers: {}, bodyText: JSON.stringify(json ?? {}), json },
    durationMs: 1,
    operation: matchOperation(method, url),
  };
}

test('a close answered closed marks the ticket closed; a message, a macro or an open patch reopen it', () => {
  assert.deepEqual(
    ticketStateBy(ex('POST', '/tickets/tkt_1/close', 200, { id: 'tkt_1', status: 'closed' })),
    { id: 'tkt_1', closed: true },
  );
  assert.deepEqual(
    ticketStateBy(ex('PATCH', '/tickets/tkt_1', 200, { id: 'tkt_1', status: 'closed' })),
    { id: 'tkt_1', closed: true },
  );
  assert.deepEqual(
    ticketStateBy(ex('PATCH', '/tickets/tkt_1', 200, { id: 'tkt_1', status: 'open' })),
    { id: 'tkt_1', closed: false },
  );
  assert.deepEqual(
    ticketStateBy(
      ex('POST', '/tickets/tkt_1/messages', 201, { id: 'msg_1', body: 'hi', author: 'customer' }),
    ),
    { id: 'tkt_1', closed: false },
  );
  assert.deepEqual(
    ticketStateBy(
      ex(
        'POST',
        '/macros/mac_1/apply',
        200,
        { id: 'tkt_1', status: 'closed' },
        { ticket_id: 'tkt_1' },
      ),
    ),
    { id: 'tkt_1', closed: false },
    'a macro may reopen: the clean-up closes it again',
  );
  // A close answered with another status than ours (U1), or without the ticket, did close it.
  assert.deepEqual(
    ticketStateBy(ex('POST', '/tickets/tkt_1/close', 200, { id: 'tkt_1', status: 'resolved' })),
    { id: 'tkt_1', closed: true },
  );
  assert.deepEqual(ticketStateBy(ex('POST', '/tickets/tkt_1/close', 204)), {
    id: 'tkt_1',
    closed: true,
  });
  // A close the deployment answered as still open is not closed.
  assert.deepEqual(
    ticketStateBy(ex('POST', '/tickets/tkt_1/close', 200, { id: 'tkt_1', status: 'open' })),
    { id: 'tkt_1', closed: false },
  );
});

test('reads, refused writes and unanswered requests change nothing', () => {
  assert.equal(
    ticketStateBy(ex('GET', '/tickets/tkt_1', 200, { id: 'tkt_1', status: 'closed' })),
    undefined,
  );
  assert.equal(ticketStateBy(ex('POST', '/tickets/tkt_1/close', 403, { status: 403 })), undefined);
  assert.equal(ticketStateBy(ex('POST', '/tickets/tkt_1/close', 404, { status: 404 })), undefined);
  const lost = ex('POST', '/tickets/tkt_1/close', 200);
  delete lost.response;
  assert.equal(ticketStateBy(lost), undefined);
  assert.equal(ticketStateBy(ex('POST', '/contacts', 201, { id: 'con_1' })), undefined);
});
