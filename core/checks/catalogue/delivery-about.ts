/**
 * Checks of what a webhook delivery is about, each over the deliveries matched to the run's API
 * actions by the delivery ledger (core/webhooks/delivery-ledger.ts): whose ticket it is, which
 * action fired it, and whether its `ticket` and `customer` are that ticket as the API showed it.
 * Each takes `{ matches }` and fails on the first delivery that breaks its rule, naming how many
 * did; the exchange passed with it is that delivery (its repro replays the payload).
 */
import type { DeliveryMatch, TicketView } from '../../webhooks/delivery-ledger.ts';
import { ticketDifferences } from '../../webhooks/delivery-ledger.ts';
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';

type Matches = { matches: readonly DeliveryMatch[] };

/** "ticket.closed about tkt_1 at /hook/all" */
const what = (m: DeliveryMatch) =>
  `${m.event ?? '(no event)'} about ${m.ticketId ?? '(no ticket id)'} at ${m.endpoint || '/'}`;

/** " (and N more deliveries)" when more than one delivery broke the rule. */
const more = (n: number) => (n > 1 ? ` (and ${n - 1} more deliver${n === 2 ? 'y' : 'ies'})` : '');

/** The payload's ticket and customer, as received (the repro has the whole body). */
const payloadOf = (m: DeliveryMatch) =>
  m.payload
    ? `ticket ${show(m.payload.ticket, 160)}, customer ${show(m.payload.customer, 120)}`
    : 'payload not UTF-8 JSON';

export const workspaceIsolated = defineCheck({
  name: 'webhook.workspace-isolated',
  provenance: 'documented',
  assumptions: [],
  rule: "Data isolation between workspaces is enforced, and an endpoint receives only the events chosen for it: nothing about another workspace's tickets reaches this workspace's endpoints.",
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.filter((m) => m.about === 'other-workspace');
    if (bad.length === 0) return undefined;
    const m = bad[0]!;
    return {
      received: `${what(m)}: a ticket the other workspace's key (HARNESS_OTHER_WORKSPACE_KEY) created during the run${more(bad.length)}; ${payloadOf(m)}`,
      expected: "no delivery about another workspace's tickets at this workspace's endpoints",
    };
  },
});

export const deliveredOnce = defineCheck({
  name: 'webhook.delivered-once',
  provenance: 'documented',
  assumptions: [],
  rule: 'The service sends the POST as the event happens — once: a delivery the receiver took (a 2xx at once) is not sent again; retries are for a receiver that is unavailable. Judged over every delivery captured until the suite ends and its deliveries have settled.',
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.filter((m) => m.about === 'duplicate');
    if (bad.length === 0) return undefined;
    const m = bad[0]!;
    return {
      received: `${what(m)}: delivery ${m.delivery.headers['x-service-delivery']} sent again after the receiver answered it 2xx${more(bad.length)}`,
      expected: 'each delivery once to a receiver that took it',
    };
  },
});

export const aboutRunTicket = defineCheck({
  name: 'webhook.about-run-ticket',
  provenance: 'assumed',
  rule: "Assumed: the workspace under test is the harness's own, so every delivery at its endpoints is about a ticket the run acted on (on a shared staging workspace, other people's tickets show here as a warning, never a failure).",
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.filter((m) => m.about === 'unknown');
    if (bad.length === 0) return undefined;
    const m = bad[0]!;
    return {
      received: `${what(m)}: a ticket no action of this run created or changed${more(bad.length)}; ${payloadOf(m)}`,
      expected: 'deliveries only about tickets the run acted on',
    };
  },
});

export const eventCaused = defineCheck({
  name: 'webhook.event-caused',
  provenance: 'documented',
  // The kind of a message action is read from our `author` and `internal` fields unless the
  // answer shows them (delivery-ledger.ts): an event only another reading of them explains leans on U9.
  assumptions: ['U9'],
  rule: 'Events: ticket.created fires when a new ticket enters the queue, ticket.replied when an agent or a customer adds a message, ticket.closed when a ticket is resolved or closed, customer.replied on a customer reply — once per such action, and never otherwise.',
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.filter((m) => m.cause && !m.cause.action);
    if (bad.length > 0) {
      const m = bad[0]!;
      const c = m.cause!;
      return {
        received: `${what(m)}, the ${ordinal(c.nth)} there: no action of the run fired it — ${c.firing} of the run's actions on the ticket fire ${m.event} (${c.actions.join(', ')})${more(bad.length)}; ${payloadOf(m)}`,
        expected: `one ${m.event} per action that fires it, at each endpoint subscribed to it`,
      };
    }
    // Caused, but only by an action taken for another kind than the run took it for.
    const leaning = a.matches.filter((m) => m.cause?.leansOn);
    if (leaning.length === 0) return undefined;
    const m = leaning[0]!;
    const c = m.cause!;
    return {
      received: `${what(m)}: fired by ${c.action!.operation}, which the run took for a ${c.action!.kind}${more(leaning.length)}`,
      expected: `${m.event} only from the actions that fire it`,
      leansOn: c.leansOn,
    };
  },
});

/**
 * The view a payload is held to. A creation answered with a status other than the documented
 * open is ticket.created-status-open's verdict; the deployment may then move the ticket on by
 * itself (new → open) before it sends ticket.created, so that status says nothing about the
 * payload. Every other field, and the status after any other action, is held as answered.
 */
function heldTo(m: DeliveryMatch): Partial<TicketView> | undefined {
  const c = m.cause;
  if (!c?.expected) return undefined;
  if (c.action?.kind !== 'create' || c.expected.status === 'open') return c.expected;
  const { status: _undocumented, ...rest } = c.expected;
  return rest;
}

export const ticketMatchesApi = defineCheck({
  name: 'webhook.ticket-matches-api',
  provenance: 'documented',
  assumptions: [],
  rule: 'Payload: `ticket` {id, subject, status, priority} is the ticket the event is about, as the API shows it at that point (status after the action that fired the event).',
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.flatMap((m) => {
      const expected = heldTo(m);
      const diffs = expected && m.payload ? ticketDifferences(expected, m.payload.ticket) : [];
      return diffs.length ? [{ m, diffs }] : [];
    });
    if (bad.length === 0) return undefined;
    const { m, diffs } = bad[0]!;
    const { action, viewAt } = m.cause!;
    const when =
      viewAt === 'after'
        ? `in its answer to ${action!.operation}`
        : `before ${action!.operation}, which does not change it`;
    return {
      received: `${what(m)}: ${diffs.map((d) => `${d.field} ${show(d.got)}`).join(', ')}${more(bad.length)}; ${payloadOf(m)}`,
      expected: `${diffs.map((d) => `${d.field} ${show(d.expected)}`).join(', ')}, as the API showed the ticket ${when}`,
    };
  },
});

const sameText = (x: unknown, y: string) =>
  typeof x === 'string' && x.normalize('NFC') === y.normalize('NFC');

export const customerIsRequester = defineCheck({
  name: 'webhook.customer-is-requester',
  provenance: 'documented',
  assumptions: [],
  rule: 'Payload: `customer` {name, email} is the customer — the requester of the ticket the event is about.',
  kind: 'scenario',
  run(_ex, a: Matches) {
    const bad = a.matches.filter((m) => {
      const c = m.payload?.customer as { name?: unknown; email?: unknown } | undefined;
      const r = m.requester;
      if (!c || typeof c !== 'object' || !r) return false;
      // An email compares without case (the domain is case-free, and a service may fold it);
      // a name compares as text (canonically equivalent spellings are the same name). A
      // requester without a name is named by the service (U3): only its email is held here.
      const email =
        r.email === undefined ||
        c.email === undefined ||
        (typeof c.email === 'string' && c.email.toLowerCase() === r.email.toLowerCase());
      const name = r.name === undefined || c.name === undefined || sameText(c.name, r.name);
      return !(email && name);
    });
    if (bad.length === 0) return undefined;
    const m = bad[0]!;
    return {
      received: `${what(m)}: customer ${show(m.payload?.customer, 160)}${more(bad.length)}`,
      expected: `customer ${show({ name: m.requester?.name, email: m.requester?.email })}, the ticket's requester`,
    };
  },
});

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

export const DELIVERY_ABOUT_CHECKS = [
  workspaceIsolated,
  deliveredOnce,
  aboutRunTicket,
  eventCaused,
  ticketMatchesApi,
  customerIsRequester,
];
