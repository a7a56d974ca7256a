/**
 * No check throws on what a target sent: every registered check, run directly (not through the
 * Verdict, which would turn a throw into "could not evaluate"), on answers a careless or
 * long-lived deployment gives — null, arrays and strings where objects belong, lists of nulls,
 * fields of every wrong type, an array nested 10 000 deep (JSON.stringify overflows on it), a
 * 1 MiB word, bytes that are not UTF-8, no headers or garbage ones — with the arguments the
 * contract suite passes, their target-derived parts odd too. Each returns a verdict: nothing,
 * or a Received / expected pair of bounded text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { toFailure } from '../../core/checks/failure.ts';
import { operations } from '../../core/spec/operations.ts';

let deep: unknown = 'bottom';
for (let i = 0; i < 10_000; i++) deep = [deep];
const word = 'x'.repeat(1024 * 1024);

/** Bodies as JSON values (the client parsed them), and as text that did not parse. */
const ODD_JSON: unknown[] = [
  null,
  [],
  [null],
  'a string',
  42,
  true,
  {},
  deep,
  { data: [null, 'x', 5, deep], has_more: 'yes', next_cursor: 7 },
  { data: 'x' },
  {
    id: 5,
    status: deep,
    subject: word,
    priority: [],
    sla: 'x',
    requester: 5,
    tags: 7,
    created_at: {},
    tickets: { total: 'x', by_status: 'ab', by_priority: [1, 'x'] },
    errors: [null, 5, { field: deep }],
    code: {},
    body: deep,
    author: null,
  },
];
const ODD_TEXT = ['', '\ufffd\ufffd not UTF-8', `<html>${word}</html>`];
const ODD_HEADERS: Array<Record<string, string>> = [
  {},
  {
    'content-type': 'text/html; charset=latin1',
    date: 'not a date',
    'x-ratelimit-limit': 'many',
    'x-ratelimit-remaining': '-1e999',
    'x-ratelimit-reset': word,
    'www-authenticate': `Bearer ${'realm'.repeat(3000)}`,
    'x-service-signature': 'sha256=zz',
    'service-signature': word,
  },
];

const LIST = operations().find((o) => o.operationId === 'listTickets')!;

function exchanges(): Exchange[] {
  const out: Exchange[] = [];
  const base = (headers: Record<string, string>) => ({
    request: {
      method: 'POST',
      url: 'https://staging.example.com/v1/tickets',
      headers: { authorization: 'Bearer stk_full_oddanswersoddanswers', ...headers },
    },
    durationMs: 1,
    sentAt: 1,
    answeredAt: 2,
    operation: LIST,
  });
  for (const headers of ODD_HEADERS)
    for (const status of [200, 201, 404, 422, 500]) {
      for (const json of ODD_JSON) {
        const bodyText = (() => {
          try {
            return JSON.stringify(json) ?? '';
          } catch {
            return '[[[…';
          }
        })();
        out.push({ ...base(headers), response: { status, headers, bodyText, json } });
      }
      for (const bodyText of ODD_TEXT)
        out.push({ ...base(headers), response: { status, headers, bodyText } });
    }
  out.push({ ...base({}), error: 'socket hang up' });
  return out;
}

/** The arguments the suite passes each check, with what it read from the target made odd. */
function argsFor(name: string, odd: unknown, ex: Exchange): unknown {
  const ids = [odd as string, 'tkt_1', 'tkt_1'];
  const table: Record<string, unknown> = {
    'isolation.get-other-workspace': { ticket: odd },
    'isolation.same-as-unknown': { unknown: ex, operation: 'GET' },
    'isolation.list': { foreignIds: ids, seen: ids },
    'isolation.foreign-unchanged': {
      writes: [{ operation: 'updateTicket', sets: { subject: 'B was here' }, refused: true }],
      twin: odd,
    },
    'isolation.rules-own-workspace': { tag: odd },
    'isolation.count': {
      operation: 'GET /v1/reports/summary',
      count: { path: ['tickets', 'total'], collection: '/v1/tickets', listed: 0 },
    },
    'ticket.priority-echoed': { sent: 'high' },
    'ticket.requester-echoed': { sent: { email: 'a@example.com', name: 'A' } },
    'ticket.subject-echoed': { sent: 'Printer 😀 on fire' },
    'tickets.status-code': { expected: [200], what: 'odd' },
    'tickets.get-matches': { created: odd },
    'tickets.merge-patch': { before: odd, patch: { subject: 's', tags: ['a', 'b'] } },
    'tickets.message-stored': { sent: { body: 'b', author: 'agent' }, ticketId: 'tkt_1' },
    'tickets.status-transition': { expected: 'pending', what: 'odd' },
    'ticket.sla-by-priority': { high: ex, normal: ex, low: ex },
    'ticket.sla-priority-order': { high: ex, normal: ex, low: ex },
    'ticket.sla-recomputed': { twin: ex },
    'tickets.pagination-walk': { seen: ids, mustContain: ['tkt_2'], pages: 3 },
    'tickets.filter-applied': { filter: { status: 'open', priority: undefined } },
    'tickets.filter-includes': { id: 'tkt_1', filter: { status: 'open' } },
    'resources.status-code': { expected: [200], what: 'odd' },
    'resources.contact-echoed': { sent: { email: 'a@example.com', name: 'A' } },
    'resources.macro-applied': {
      actions: { status: 'pending', priority: 'high', tags_add: ['x'] },
    },
    'resources.rule-applied': { tag: 'x' },
    'resources.report-consistent': { atLeast: 1 },
    'resources.listed': { id: 'ctc_1', what: 'contact' },
    'resources.rule-conditions': { tag: 'x' },
    'validation.error-field-named': { field: 'subject' },
    'webhook.signature-valid': {
      raw: Buffer.from(ex.response?.bodyText ?? ''),
      secret: 'whsec_odd',
    },
    'webhook.payload-schema': { event: 'ticket.created', payload: odd },
    'webhook.event-delivered': { event: 'ticket.created', got: [] },
    'webhook.https-delivered': { event: 'ticket.created', got: [], url: 'https://127.0.0.1/hook' },
    'webhook.only-chosen-events': { chosen: ['ticket.created'], got: ['x', 'x'] },
    'webhook.sla-at-risk-fired': { got: [] },
    'webhook.retried-after-5xx': { attempts: 1, deliveryIds: [] },
    'webhook.event-named': { event: 'agent.replied', got: [] },
    'webhook.event-shape': { event: 'ticket.created', payload: odd },
    'webhook.signature-form': { form: 'both' },
    'webhook.sla-at-risk-once': { count: 2 },
    // What a delivery is about: its payload is the target's, odd in every field.
    ...Object.fromEntries(
      [
        'webhook.workspace-isolated',
        'webhook.about-run-ticket',
        'webhook.event-caused',
        'webhook.ticket-matches-api',
        'webhook.customer-is-requester',
        'webhook.delivered-once',
      ].map((n) => [n, { matches: oddMatches(odd, ex) }]),
    ),
  };
  if (name in table) return table[name];
  const c = checks.all().find((x) => x.name === name)!;
  if (c.kind === 'sequence') return { earlier: [ex, ex] };
  if (c.kind === 'exchange') return undefined;
  return { what: 'odd', operation: 'GET /v1/tickets' };
}

/** Deliveries of every kind of `about`, each carrying `odd` as its ticket and customer. */
function oddMatches(odd: unknown, ex: Exchange) {
  const delivery = {
    receivedAt: 0,
    method: 'POST',
    path: '/hook',
    headers: ex.response?.headers ?? {},
    body: Buffer.from(ex.response?.bodyText ?? ''),
  };
  // The ledger reads the event and ticket id only when they are strings (core/webhooks/delivery-ledger.ts).
  const text = typeof odd === 'string' ? odd : 'ticket.created';
  const base = { endpoint: '/hook', delivery, event: text, ticketId: text };
  const action = { operation: 'closeTicket', ticketId: 'tkt_1', workspace: 'own', at: 0 };
  return (['own', 'other-workspace', 'unknown', 'unreadable', 'duplicate'] as const).map(
    (about) => ({
      ...base,
      about,
      payload: { ticket: odd, customer: odd },
      requester: { email: 'a@example.com', name: 'A' },
      cause: {
        ...(about === 'own' ? { action } : {}),
        expected: { id: 'tkt_1', subject: 's', status: 'closed', priority: 'normal' },
        viewAt: 'after',
        firing: 0,
        nth: 2,
        actions: ['createTicket', 'closeTicket'],
      },
    }),
  );
}

test('every check judges odd answers without throwing', { timeout: 120_000 }, () => {
  const all = checks.all();
  assert.ok(all.length > 50, `${all.length} checks`);
  let runs = 0;
  for (const ex of exchanges())
    for (const c of all)
      for (const odd of [ex.response?.json, deep, null, 'x']) {
        let v: ReturnType<typeof c.run>;
        try {
          v = c.run(ex, argsFor(c.name, odd, ex) as never);
        } catch (e) {
          assert.fail(
            `${c.name} threw on ${ex.response?.status} ${String(ex.response?.bodyText).slice(0, 60)}: ${(e as Error).stack}`,
          );
        }
        runs++;
        if (v === undefined) continue;
        assert.equal(typeof v.received, 'string', c.name);
        assert.equal(typeof v.expected, 'string', c.name);
        // What a report shows of it is bounded, whatever the check put in it.
        const f = toFailure(c, v, ex);
        assert.ok(f.received.length < 10_000 && (f.repro ?? '').length < 20_000, c.name);
      }
  assert.ok(runs > 10_000, `${runs} runs`);
});
