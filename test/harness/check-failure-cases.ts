/**
 * Unit proof that a check can fail, for the checks no fault of the catalogue (server/faults.ts)
 * can break on the reference deployment: each case is a realistic recorded exchange that breaks
 * the check's rule, and its correct counterpart. check-failure-cases.test.ts runs every case;
 * check-coverage.test.ts counts a check as shown to fail only when its case really fails here.
 *
 * Prefer a fault: a case belongs here only when the reference deployment cannot be made to
 * break the rule (loopback is exempt from HTTPS; no contract test is tagged with the check) or
 * when the rule is about webhooks, whose faults live with the webhook dispatcher.
 */
import type { CheckArgsOf, CheckName } from '../../core/checks/all.ts';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { matchOperation } from '../../core/spec/operations.ts';
import { signatureHeaders } from '../../core/signature/sign.ts';
import { type LedgerAction, matchDeliveries } from '../../core/webhooks/delivery-ledger.ts';

export interface FailureCase {
  check: CheckName;
  /** What the deployment did wrong, as a sentence. */
  breaks: string;
  /** Applies the check to the broken exchange; the verdict holds the result. */
  runBroken(v: Verdict): boolean;
  /** Applies the check to the correct counterpart. */
  runCorrect(v: Verdict): boolean;
  /** What the failure's Received and Documented/Assumed lines must say. */
  received: RegExp;
  expected: RegExp;
}

interface Input<N extends CheckName> {
  ex?: Exchange;
  args: CheckArgsOf<N>;
}

type LooseCheck = (name: string, ex: Exchange | undefined, args?: unknown) => boolean;

function unitCase<N extends CheckName>(c: {
  check: N;
  breaks: string;
  broken: Input<N>;
  correct: Input<N>;
  received: RegExp;
  expected: RegExp;
}): FailureCase {
  // Typed at the call site (args must be the check's type); applied without re-deriving it.
  const apply = (v: Verdict, i: Input<N>) => (v.check as LooseCheck).call(v, c.check, i.ex, i.args);
  return {
    check: c.check,
    breaks: c.breaks,
    runBroken: (v) => apply(v, c.broken),
    runCorrect: (v) => apply(v, c.correct),
    received: c.received,
    expected: c.expected,
  };
}

const RL = {
  'x-ratelimit-limit': '600',
  'x-ratelimit-remaining': '598',
  'x-ratelimit-reset': '1795338000',
};

const TICKET = {
  id: 'tkt_8f2k1',
  subject: 'Printer on fire',
  status: 'open',
  priority: 'high',
  requester: { email: 'ada@example.com', name: 'Ada Lovelace' },
  tags: [],
  sla: { first_response_due: '2026-11-22T10:00:00Z' },
  created_at: '2026-11-22T09:00:00Z',
  updated_at: '2026-11-22T09:00:00Z',
};

/** A recorded API exchange: the request as sent, the answer as received. */
function api(
  method: string,
  url: string,
  status: number,
  headers: Record<string, string>,
  bodyText: string,
): Exchange {
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  return {
    request: { method, url, headers: { authorization: 'Bearer $HARNESS_API_KEY' } },
    response: { status, headers, bodyText, json },
    durationMs: 12,
    operation: matchOperation(method, url),
  };
}

const SECRET = 'whsec_unit_case_secret';

/** A recorded webhook delivery: the POST the service sent to the receiver, and its 200. */
function delivery(payload: unknown, forms: 'prefixed' | 'plain' | 'both'): Exchange {
  const raw = JSON.stringify(payload);
  const signed = signatureHeaders(forms, SECRET, raw);
  return {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9911/hooks/a1',
      headers: {
        'content-type': 'application/json',
        'x-service-delivery': 'dlv_1',
        ...Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v])),
      },
      body: raw,
    },
    response: { status: 200, headers: {}, bodyText: '' },
    durationMs: 3,
  };
}

const envelope = (event: string) => ({
  event,
  ticket: {
    id: TICKET.id,
    subject: TICKET.subject,
    status: 'open',
    priority: 'high',
    url: 'https://dashboard.support-ticketing.example/tickets/tkt_8f2k1',
  },
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
});
const message = {
  id: 'msg_1',
  body: 'Could you send us the printer model?',
  author: 'agent',
  internal: false,
  created_at: '2026-11-22T09:05:00Z',
};

/** A ticket.created delivery at /hook/all matched against a run that did (or did not) create its ticket. */
function aboutRun(created: boolean) {
  const raw = Buffer.from(JSON.stringify(envelope('ticket.created')));
  const d = { receivedAt: 1, method: 'POST', path: '/hook/all', headers: {}, raw, answered: 204 };
  const actions: LedgerAction[] = created
    ? [
        {
          at: 0,
          ticketId: TICKET.id,
          workspace: 'own',
          kind: 'create',
          operation: 'POST /v1/tickets',
          view: { id: TICKET.id, subject: TICKET.subject, status: 'open', priority: 'high' },
          requester: { email: 'ada@example.com', name: 'Ada Lovelace' },
        },
      ]
    : [];
  return matchDeliveries(actions, [{ endpoint: '/hook/all', delivery: d }]);
}

export const FAILURE_CASES: readonly FailureCase[] = [
  unitCase({
    check: 'exchange.transport-secure',
    // Loopback is exempt, and the harness refuses plain HTTP elsewhere unless allowed: no
    // deployment the tests start can break this rule.
    breaks: 'a staging deployment reached over plain HTTP (HARNESS_ALLOW_INSECURE=1)',
    broken: {
      ex: api(
        'GET',
        'http://staging.example.com/v1/tickets',
        200,
        { ...RL, 'content-type': 'application/json' },
        '{"data":[],"has_more":false,"next_cursor":null}',
      ),
      args: undefined,
    },
    correct: {
      ex: api(
        'GET',
        'https://staging.example.com/v1/tickets',
        200,
        { ...RL, 'content-type': 'application/json' },
        '{"data":[],"has_more":false,"next_cursor":null}',
      ),
      args: undefined,
    },
    received: /plain HTTP to staging\.example\.com/,
    expected: /HTTPS for every non-loopback target/,
  }),
  unitCase({
    check: 'exchange.json-body',
    // No contract test is tagged with this every-exchange check, so the detection matrix cannot
    // run it in a fault's project.
    breaks: 'a proxy in front of the service answers a list with its HTML welcome page',
    broken: {
      ex: api(
        'GET',
        'http://127.0.0.1:8080/v1/tickets',
        200,
        { ...RL, 'content-type': 'text/html' },
        '<html><body><h1>Welcome to nginx!</h1></body></html>',
      ),
      args: undefined,
    },
    correct: {
      ex: api(
        'GET',
        'http://127.0.0.1:8080/v1/tickets',
        200,
        { ...RL, 'content-type': 'application/json' },
        '{"data":[],"has_more":false,"next_cursor":null}',
      ),
      args: undefined,
    },
    received: /200 body not JSON: .*Welcome to nginx/,
    expected: /a JSON body/,
  }),
  unitCase({
    check: 'exchange.response-schema',
    breaks: 'a creation answers the ticket with a numeric id and no sla object',
    broken: {
      ex: api(
        'POST',
        'http://127.0.0.1:8080/v1/tickets',
        201,
        { ...RL, 'content-type': 'application/json' },
        JSON.stringify({ ...TICKET, id: 8812, sla: undefined }),
      ),
      args: undefined,
    },
    correct: {
      ex: api(
        'POST',
        'http://127.0.0.1:8080/v1/tickets',
        201,
        { ...RL, 'content-type': 'application/json' },
        JSON.stringify(TICKET),
      ),
      args: undefined,
    },
    received: /201 body: .*(\/id|sla)/,
    expected: /a valid Ticket/,
  }),
  unitCase({
    check: 'webhook.event-named',
    breaks: 'an agent reply is delivered only as ticket.replied, never as agent.replied (U12)',
    broken: { args: { event: 'agent.replied', got: ['ticket.replied'] } },
    correct: { args: { event: 'agent.replied', got: ['ticket.replied', 'agent.replied'] } },
    received: /deliveries: ticket\.replied$/,
    expected: /a agent\.replied delivery/,
  }),
  unitCase({
    check: 'webhook.event-shape',
    breaks: 'agent.replied arrives as the bare envelope, without the message (U13)',
    broken: {
      ex: delivery(envelope('agent.replied'), 'both'),
      args: { event: 'agent.replied', payload: envelope('agent.replied') },
    },
    correct: {
      ex: delivery({ ...envelope('agent.replied'), message }, 'both'),
      args: { event: 'agent.replied', payload: { ...envelope('agent.replied'), message } },
    },
    received: /message/,
    expected: /a valid AgentRepliedEvent/,
  }),
  unitCase({
    check: 'webhook.signature-form',
    breaks: 'an endpoint configured for both forms gets only X-Service-Signature (U15)',
    broken: { ex: delivery(envelope('ticket.created'), 'prefixed'), args: { form: 'both' } },
    correct: { ex: delivery(envelope('ticket.created'), 'both'), args: { form: 'both' } },
    received: /headers: X-Service-Signature$/,
    expected: /the both form/,
  }),
  unitCase({
    // A dashboard endpoint on shared staging also hears about other people's tickets: the
    // reference deployment only ever delivers what the run caused, so no fault shows this.
    check: 'webhook.about-run-ticket',
    breaks:
      'a dashboard endpoint receives ticket.created about a ticket no action of the run touched',
    broken: {
      ex: delivery(envelope('ticket.created'), 'both'),
      args: { matches: aboutRun(false) },
    },
    correct: {
      ex: delivery(envelope('ticket.created'), 'both'),
      args: { matches: aboutRun(true) },
    },
    received: /^ticket\.created about tkt_8f2k1 at \/hook\/all: a ticket no action of this run/,
    expected: /only about tickets the run acted on/,
  }),
  unitCase({
    check: 'webhook.sla-at-risk-once',
    breaks: 'the SLA sweep announces the same ticket on every pass (two sla.at_risk)',
    broken: { args: { count: 2 } },
    correct: { args: { count: 1 } },
    received: /2 sla\.at_risk deliveries for one ticket/,
    expected: /exactly one/,
  }),
];

/** Runs a case; the names of the checks whose broken exchange really failed them. */
export function checksShownToFail(cases: readonly FailureCase[]): Set<string> {
  const shown = new Set<string>();
  for (const c of cases) {
    const v = new Verdict(checks, `unit case: ${c.check}`);
    if (!c.runBroken(v) && v.failures().some((f) => f.check === c.check)) shown.add(c.check);
  }
  return shown;
}
