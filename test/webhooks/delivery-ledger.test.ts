/**
 * The delivery ledger (core/webhooks/delivery-ledger.ts) and the checks of what a delivery is
 * about (core/checks/catalogue/delivery-about.ts): recorded exchanges become actions, and each
 * delivery is matched to the action that fired it — whose ticket, which event, the ticket as the
 * API showed it, the requester as customer — or reported with its payload.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { matchOperation } from '../../core/spec/operations.ts';
import type { CapturedDelivery } from '../../core/webhooks/capture-receiver.ts';
import {
  type DeliveryMatch,
  type LedgerAction,
  ledgerActionOf,
  ledgerWorkspace,
  matchDeliveries,
} from '../../core/webhooks/delivery-ledger.ts';

const BASE = 'http://127.0.0.1:9/v1';
const REQUESTER = { email: 'zoe.angstrom@example.com', name: 'Zoë Ångström 𠮷田' };

function exchange(
  method: string,
  path: string,
  body: unknown,
  status: number,
  answer?: unknown,
  key = 'sk_a',
): Exchange {
  const url = `${BASE.replace(/\/v1$/, '')}${path}`;
  return {
    request: {
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    response: { status, headers: {}, bodyText: '', json: answer },
    durationMs: 1,
    operation: matchOperation(method, new URL(url).pathname),
  };
}

const ticket = (status: string, o: Record<string, unknown> = {}) => ({
  id: 'tkt_1',
  subject: 'Printer on fire',
  status,
  priority: 'high',
  requester: REQUESTER,
  ...o,
});

/** A run that creates tkt_1, replies as agent and as customer, and closes it. */
function run(): LedgerAction[] {
  const exs = [
    exchange(
      'POST',
      '/v1/tickets',
      { subject: 'Printer on fire', requester: REQUESTER, priority: 'high' },
      201,
      ticket('open'),
    ),
    exchange('POST', '/v1/tickets/tkt_1/messages', { body: 'On it', author: 'agent' }, 201, {
      id: 'msg_1',
    }),
    exchange('POST', '/v1/tickets/tkt_1/messages', { body: 'Thanks', author: 'customer' }, 201, {
      id: 'msg_2',
    }),
    exchange('POST', '/v1/tickets/tkt_1/close', undefined, 200, ticket('closed')),
  ];
  return exs.map((ex, i) => ledgerActionOf(ex, 'own', i)!);
}

let clock = 0;
function delivery(
  event: string,
  o: { ticket?: Record<string, unknown>; customer?: unknown; id?: string; latin1?: boolean } = {},
): CapturedDelivery {
  const payload = {
    event,
    ticket: {
      id: 'tkt_1',
      subject: 'Printer on fire',
      status: event === 'ticket.closed' ? 'closed' : 'open',
      priority: 'high',
      url: 'https://d.example/t/tkt_1',
      ...o.ticket,
    },
    customer: o.customer ?? REQUESTER,
  };
  const raw = Buffer.from(JSON.stringify(payload), o.latin1 ? 'latin1' : 'utf8');
  return {
    receivedAt: ++clock,
    method: 'POST',
    path: '/hook/all',
    headers: { 'content-type': 'application/json', 'x-service-delivery': o.id ?? `wd_${clock}` },
    raw,
    answered: 204,
  };
}

const at = (ds: CapturedDelivery[]) => ds.map((delivery) => ({ endpoint: '/hook/all', delivery }));

/** The failures of each sweep check over `matches`. */
function judge(matches: DeliveryMatch[]) {
  const v = new Verdict(checks, 'unit');
  for (const name of [
    'webhook.workspace-isolated',
    'webhook.about-run-ticket',
    'webhook.event-caused',
    'webhook.ticket-matches-api',
    'webhook.customer-is-requester',
  ] as const)
    v.check(name, undefined, { matches });
  v.check('webhook.delivered-once', undefined, { matches });
  return v.failures();
}

describe('ledgerActionOf', () => {
  test('the writes that fire events become actions with the ticket as answered; the rest do not', () => {
    const [create, reply, customer, close] = run();
    assert.deepEqual(
      [create, reply, customer, close].map((a) => [a!.kind, a!.ticketId, a!.view?.status]),
      [
        ['create', 'tkt_1', 'open'],
        ['agent-reply', 'tkt_1', undefined],
        ['customer-reply', 'tkt_1', undefined],
        ['close', 'tkt_1', 'closed'],
      ],
    );
    assert.deepEqual(create!.requester, REQUESTER);
    const note = exchange(
      'POST',
      '/v1/tickets/tkt_1/messages',
      { body: 'n', author: 'agent', internal: true },
      201,
      {},
    );
    assert.equal(ledgerActionOf(note, 'own')?.kind, 'note');
    const patch = exchange(
      'PATCH',
      '/v1/tickets/tkt_1',
      { status: 'closed' },
      200,
      ticket('closed'),
    );
    assert.equal(ledgerActionOf(patch, 'own')?.closes, true);
    const macro = exchange(
      'POST',
      '/v1/macros/mac_1/apply',
      { ticket_id: 'tkt_1' },
      200,
      ticket('open'),
    );
    assert.deepEqual(
      [ledgerActionOf(macro, 'own')?.kind, ledgerActionOf(macro, 'own')?.closes],
      ['macro', undefined],
    );
    // Refused writes, reads and unknown routes fire nothing.
    assert.equal(
      ledgerActionOf(exchange('POST', '/v1/tickets/tkt_1/close', undefined, 404, {}), 'own'),
      undefined,
    );
    assert.equal(
      ledgerActionOf(exchange('GET', '/v1/tickets/tkt_1', undefined, 200, ticket('open')), 'own'),
      undefined,
    );
  });

  test('the other workspace is told by its key, which is compared and never kept', () => {
    const b = exchange('POST', '/v1/tickets', {}, 201, ticket('open'), 'sk_other');
    assert.equal(ledgerWorkspace(b, 'sk_other'), 'other');
    assert.equal(ledgerWorkspace(b, undefined), 'own');
    assert.doesNotMatch(JSON.stringify(ledgerActionOf(b, 'other')), /sk_other/);
  });
});

describe('a delivery sent again', () => {
  test('after the receiver answered it 503 is a retry, counted once; after a 2xx, a duplicate', () => {
    const first = { ...delivery('ticket.created', { id: 'wd_1' }), answered: 503 };
    const retry = { ...delivery('ticket.created', { id: 'wd_1' }), raw: first.raw };
    const again = { ...delivery('ticket.created', { id: 'wd_1' }), raw: first.raw };
    const retried = matchDeliveries(run(), at([first, retry]));
    assert.deepEqual(
      retried.map((m) => m.about),
      ['own'],
    );
    assert.deepEqual(judge(retried), []);
    const twice = matchDeliveries(run(), at([first, retry, again]));
    assert.deepEqual(
      twice.map((m) => m.about),
      ['own', 'duplicate'],
    );
    assert.deepEqual(
      judge(twice).map((f) => [f.check, f.provenance]),
      [['webhook.delivered-once', 'documented']],
    );
  });

  test('the same bytes without a delivery id after a 2xx count as another delivery (a second event may read the same)', () => {
    const a = delivery('ticket.replied');
    const strip = (d: CapturedDelivery) => {
      const { 'x-service-delivery': _, ...headers } = d.headers;
      return { ...d, headers };
    };
    const b = { ...strip(delivery('ticket.replied')), raw: a.raw };
    const matches = matchDeliveries(run(), at([strip(a), b]));
    assert.deepEqual(
      matches.map((m) => m.about),
      ['own', 'own'],
    );
    // Two replies on the ticket fire ticket.replied: both deliveries have their cause.
    assert.deepEqual(judge(matches), []);
  });
});

describe('a message whose kind rests on our fields (U9)', () => {
  const customerNote = (answer: unknown) =>
    exchange(
      'POST',
      '/v1/tickets/tkt_1/messages',
      { body: 'customer note', author: 'customer', internal: true },
      201,
      answer,
    );
  const created = () =>
    ledgerActionOf(
      exchange(
        'POST',
        '/v1/tickets',
        { subject: 'Printer on fire', requester: REQUESTER },
        201,
        ticket('open'),
      ),
      'own',
      0,
    )!;

  test('is read from the answer when it shows author and internal; from the request otherwise, as an assumption', () => {
    const shown = ledgerActionOf(customerNote({ author: 'customer', internal: false }), 'own');
    assert.deepEqual([shown?.kind, shown?.kindAssumed], ['customer-reply', undefined]);
    const unshown = ledgerActionOf(customerNote({ id: 'msg_1' }), 'own');
    assert.equal(unshown?.kind, 'note');
    assert.deepEqual(unshown?.kindAssumed?.others, ['agent-reply', 'customer-reply']);
    // A customer's internal note, as the target stored it: neither kind alone by the docs.
    const asSent = ledgerActionOf(customerNote({ author: 'customer', internal: true }), 'own');
    assert.deepEqual([asSent?.kind, asSent?.kindAssumed?.others], ['note', ['customer-reply']]);
  });

  test('an event only another reading of its kind explains is an assumption mismatch, not a failure', () => {
    const actions = [created(), ledgerActionOf(customerNote({ id: 'msg_1' }), 'own', 1)!];
    const failures = judge(
      matchDeliveries(actions, at([delivery('ticket.created'), delivery('customer.replied')])),
    );
    assert.deepEqual(
      failures.map((f) => [f.check, f.provenance]),
      [['webhook.event-caused', 'assumed']],
    );
    assert.match(
      failures[0]!.received,
      /fired by POST \/v1\/tickets\/\{ticket_id\}\/messages, which the run took for a note/,
    );
    assert.match(failures[0]!.expected, /judged on an assumption \(U9\)/);
  });

  test('an event no reading of any action explains is still a documented failure', () => {
    const actions = [created(), ledgerActionOf(customerNote({ id: 'msg_1' }), 'own', 1)!];
    const failures = judge(
      matchDeliveries(actions, at([delivery('ticket.created'), delivery('ticket.closed')])),
    );
    assert.deepEqual(
      failures.map((f) => [f.check, f.provenance]),
      [['webhook.event-caused', 'documented']],
    );
  });
});

describe('matchDeliveries and the checks of what a delivery is about', () => {
  test('a correct deployment: every delivery caused once, showing the ticket as answered and the requester', () => {
    const ds = [
      delivery('ticket.created'),
      delivery('ticket.replied'),
      delivery('agent.replied'),
      delivery('ticket.replied'),
      delivery('customer.replied'),
      delivery('ticket.closed'),
    ];
    const matches = matchDeliveries(run(), at(ds));
    assert.deepEqual(
      matches.map((m) => m.about),
      Array(6).fill('own'),
    );
    assert.deepEqual(judge(matches), []);
  });

  test('a retry (same delivery id, the first not taken) counts once; a second ticket.created on close is an event no action fired', () => {
    const first = delivery('ticket.created', { id: 'wd_same' });
    const retry = { ...delivery('ticket.created', { id: 'wd_same' }), raw: first.raw };
    assert.deepEqual(judge(matchDeliveries(run(), at([{ ...first, answered: 500 }, retry]))), []);
    const [f] = judge(
      matchDeliveries(
        run(),
        at([
          first,
          delivery('ticket.closed'),
          delivery('ticket.created', { ticket: { status: 'closed' } }),
        ]),
      ),
    );
    assert.equal(f?.check, 'webhook.event-caused');
    assert.equal(f?.provenance, 'documented');
    assert.match(
      f!.received,
      /^ticket\.created about tkt_1 at \/hook\/all, the 2nd there: no action of the run fired it — 1 of the run's actions on the ticket fire ticket\.created/,
    );
    assert.match(f!.received, /"status":"closed"/, 'the payload is shown');
  });

  test('ticket.closed showing the ticket still open differs from the API’s answer to the close', () => {
    const [f, ...rest] = judge(
      matchDeliveries(run(), at([delivery('ticket.closed', { ticket: { status: 'open' } })])),
    );
    assert.deepEqual(rest, []);
    assert.equal(f?.check, 'webhook.ticket-matches-api');
    assert.match(f!.received, /^ticket\.closed about tkt_1 at \/hook\/all: status "open"/);
    assert.match(
      f!.expected,
      /^status "closed", as the API showed the ticket in its answer to POST \/v1\/tickets\/\{ticket_id\}\/close/,
    );
  });

  test('a creation answered with an undocumented status (new) leaves ticket.created’s status to ticket.created-status-open; answered open, it is held', () => {
    const answeredNew = (status: string) => {
      const acts = run();
      acts[0] = { ...acts[0]!, view: { ...acts[0]!.view!, status } };
      return acts;
    };
    // The deployment moved the ticket on by itself (new → open) before it sent the event.
    assert.deepEqual(
      judge(matchDeliveries(answeredNew('new'), at([delivery('ticket.created')]))),
      [],
    );
    // Its other fields are still held.
    const [p] = judge(
      matchDeliveries(
        answeredNew('new'),
        at([delivery('ticket.created', { ticket: { priority: 'low' } })]),
      ),
    );
    assert.equal(p?.check, 'webhook.ticket-matches-api');
    assert.match(p!.received, /priority "low"/);
    const [f] = judge(
      matchDeliveries(run(), at([delivery('ticket.created', { ticket: { status: 'pending' } })])),
    );
    assert.equal(f?.check, 'webhook.ticket-matches-api');
    assert.match(f!.received, /^ticket\.created about tkt_1 at \/hook\/all: status "pending"/);
  });

  test('a reply shows the ticket as before it (its answer is a message): priority held, status left to U1', () => {
    const ok = delivery('ticket.replied', { ticket: { status: 'pending' } });
    assert.deepEqual(judge(matchDeliveries(run(), at([ok]))), []);
    const [f] = judge(
      matchDeliveries(run(), at([delivery('customer.replied', { ticket: { priority: 'low' } })])),
    );
    assert.equal(f?.check, 'webhook.ticket-matches-api');
    assert.match(f!.expected, /priority "high", as the API showed the ticket before POST/);
  });

  test('out of order: two closes and their deliveries pair by what they show', () => {
    const actions = [
      ...run(),
      ledgerActionOf(
        exchange('PATCH', '/v1/tickets/tkt_1', { status: 'open' }, 200, ticket('open')),
        'own',
        10,
      )!,
      ledgerActionOf(
        exchange(
          'PATCH',
          '/v1/tickets/tkt_1',
          { status: 'closed', priority: 'low' },
          200,
          ticket('closed', { priority: 'low' }),
        ),
        'own',
        11,
      )!,
    ];
    const later = delivery('ticket.closed', { ticket: { priority: 'low' } });
    const earlier = delivery('ticket.closed');
    assert.deepEqual(judge(matchDeliveries(actions, at([later, earlier]))), []);
  });

  test('the customer is the requester: the agent in its place fails; NFD spelling and email case do not', () => {
    const agent = { name: 'Support Agent', email: 'agent@desk.example' };
    const [f] = judge(
      matchDeliveries(run(), at([delivery('ticket.created', { customer: agent })])),
    );
    assert.equal(f?.check, 'webhook.customer-is-requester');
    assert.match(f!.received, /customer \{"name":"Support Agent","email":"agent@desk\.example"\}/);
    assert.match(f!.expected, /Zoë Ångström 𠮷田/);
    const same = { name: REQUESTER.name.normalize('NFD'), email: REQUESTER.email.toUpperCase() };
    assert.deepEqual(
      judge(matchDeliveries(run(), at([delivery('ticket.created', { customer: same })]))),
      [],
    );
  });

  test("another workspace's ticket at this workspace's endpoint fails isolation; an unknown ticket is only assumed", () => {
    const b = exchange('POST', '/v1/tickets', {}, 201, ticket('open', { id: 'tkt_b' }), 'sk_other');
    const theirs = delivery('ticket.created', { ticket: { id: 'tkt_b' } });
    const [iso, ...rest] = judge(matchDeliveries([ledgerActionOf(b, 'other', 0)!], at([theirs])));
    assert.deepEqual(rest, []);
    assert.equal(iso?.check, 'webhook.workspace-isolated');
    assert.match(
      iso!.received,
      /^ticket\.created about tkt_b at \/hook\/all: a ticket the other workspace's key \(HARNESS_OTHER_WORKSPACE_KEY\) created during the run; ticket \{"id":"tkt_b"/,
    );
    const [unknown] = judge(
      matchDeliveries([], at([delivery('ticket.created', { ticket: { id: 'tkt_zz' } })])),
    );
    assert.equal(unknown?.check, 'webhook.about-run-ticket');
    assert.equal(unknown?.provenance, 'assumed');
  });

  test('a Latin-1 body is routed but not judged on its text (the Content-Type rule says it); a second ticket.created still counts', () => {
    const latin = delivery('ticket.created', { latin1: true });
    const [m] = matchDeliveries(run(), at([latin]));
    assert.equal(m?.payload, undefined);
    assert.deepEqual(judge([m!]), []);
    const ct = new Verdict(checks, 'unit');
    ct.check(
      'webhook.content-type',
      { request: { method: 'POST', url: '/hook/all', headers: latin.headers }, durationMs: 0 },
      { raw: latin.raw },
    );
    assert.match(ct.failures()[0]!.received, /not valid UTF-8: byte 0xEB/);
  });

  test('linear: thousands of deliveries and actions are matched in one pass', () => {
    const actions: LedgerAction[] = [];
    const ds: CapturedDelivery[] = [];
    for (let i = 0; i < 3000; i++) {
      const id = `tkt_${i}`;
      actions.push(
        ledgerActionOf(
          exchange('POST', '/v1/tickets', { requester: REQUESTER }, 201, ticket('open', { id })),
          'own',
          i,
        )!,
      );
      ds.push(delivery('ticket.created', { ticket: { id } }));
    }
    const matches = matchDeliveries(actions, at(ds));
    assert.equal(matches.length, 3000);
    assert.deepEqual(judge(matches), []);
  });
});
