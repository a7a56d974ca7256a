/**
 * The fault catalogue: named switches, each ONE deviation from the contract, each naming the
 * rule it breaks and the harness check that must catch it. `--fault a,b` (serve / npm start) and
 * `startService({ faults })` turn them on. The harness's detection self-tests run every entry.
 *
 * `check` names a contract or webhook check of core/checks (area `contracts` / `webhooks`) or a
 * load verdict id of load/lib/verdicts.ts (area `limits`); a test fails when one does not exist.
 */
import type { CheckName } from '../core/checks/all.ts';

export type FaultArea = 'contracts' | 'limits' | 'webhooks';

export interface Fault<N extends string = string> {
  name: N;
  area: FaultArea;
  /** What the deployment does wrong. */
  does: string;
  /** The rule it breaks: a documented sentence, or an assumption with its gap. */
  breaks: string;
  provenance: 'documented' | 'assumed';
  /** The check (or load verdict / webhook property) that must fail. */
  check: string;
}

/**
 * One catalogue entry. A contract or webhook fault must name a registered check (a typo is a
 * compile error); a limits fault names a load verdict id (checked by test/server/faults.test.ts).
 */
const F = <const N extends string, Ar extends FaultArea>(
  name: N,
  area: Ar,
  provenance: Fault['provenance'],
  check: Ar extends 'limits' ? string : CheckName,
  does: string,
  breaks: string,
): Fault<N> => ({ name, area, provenance, check, does, breaks });

export const FAULTS = [
  // --- tickets ------------------------------------------------------------------------------
  F(
    'create-status-new',
    'contracts',
    'documented',
    'ticket.created-status-open',
    'answers a creation with status `new`',
    'A newly created ticket has status open in the response to creation.',
  ),
  F(
    'created-at-no-utc',
    'contracts',
    'documented',
    'ticket.timestamps-utc',
    'writes created_at without a UTC designator (local time, no Z)',
    'created_at: ISO 8601 UTC timestamp.',
  ),
  F(
    'sla-missing',
    'contracts',
    'documented',
    'ticket.sla-present',
    'omits the sla object from tickets',
    'Ticket contains sla.first_response_due.',
  ),
  F(
    'sla-ignores-priority',
    'contracts',
    'documented',
    'ticket.sla-by-priority',
    'gives every priority the same SLA target',
    'Priority affects the SLA clock.',
  ),
  F(
    'priority-ignored',
    'contracts',
    'documented',
    'ticket.priority-echoed',
    'stores every ticket as priority normal',
    'priority: one of low, normal, high (creation input).',
  ),
  F(
    'requester-not-echoed',
    'contracts',
    'documented',
    'ticket.requester-echoed',
    'drops requester.name from tickets',
    'requester: the customer, carries an email and a name.',
  ),
  F(
    'missing-requester-500',
    'contracts',
    'documented',
    'exchange.no-5xx',
    'answers 500 when requester is missing',
    'requester is required; malformed requests get a 4xx (standard status codes).',
  ),
  F(
    'create-200',
    'contracts',
    'assumed',
    'exchange.documented-status',
    'answers a creation with 200 instead of 201',
    'U5: POST /v1/tickets → 201 + Location.',
  ),
  F(
    'list-bare-array',
    'contracts',
    'assumed',
    'tickets.list-envelope',
    'lists tickets as a bare JSON array',
    'U4: list envelope {data, has_more, next_cursor}.',
  ),
  F(
    'pagination-overlap',
    'contracts',
    'assumed',
    'tickets.pagination-walk',
    'repeats the last item of a page at the top of the next',
    'U4: cursor pagination without duplicates or gaps.',
  ),
  F(
    'close-keeps-status',
    'contracts',
    'documented',
    'tickets.close',
    'answers close with 200 but leaves the status unchanged',
    'ticket.closed: a ticket is resolved or closed (close exists).',
  ),
  F(
    'errors-plain-text',
    'contracts',
    'assumed',
    'exchange.content-type',
    'answers errors as text/plain instead of problem+json',
    'U16: errors are application/problem+json.',
  ),
  F(
    'validation-400',
    'contracts',
    'assumed',
    'validation.status-422',
    'answers schema violations with 400 instead of 422',
    'U20: validation failure → 422.',
  ),
  F(
    'subject-not-required',
    'contracts',
    'documented',
    'validation.invalid-rejected',
    'creates a ticket without a subject (a placeholder subject)',
    'Ticket creation input: subject, required: yes.',
  ),
  F(
    'sla-reversed',
    'contracts',
    'assumed',
    'ticket.sla-priority-order',
    'gives high priority the longest first-response target and low the shortest (24 h / 1 h)',
    'SLA (docs/assumptions.md): high 1 h < normal 4 h < low 24 h.',
  ),
  F(
    'sla-not-recomputed',
    'contracts',
    'assumed',
    'ticket.sla-recomputed',
    'keeps the old first_response_due when the priority changes',
    'SLA (docs/assumptions.md): a priority change recomputes first_response_due.',
  ),
  F(
    'get-priority-normal',
    'contracts',
    'assumed',
    'tickets.get-matches',
    'shows priority normal for every ticket read by id (the read path drops the column)',
    'U8: GET /v1/tickets/{id} returns the ticket as created.',
  ),
  F(
    'patch-subject-ignored',
    'contracts',
    'assumed',
    'tickets.merge-patch',
    'answers a PATCH with 200 but drops the subject it carries',
    'U6: PATCH is a JSON merge patch: the fields sent change.',
  ),
  F(
    'close-twice-409',
    'contracts',
    'assumed',
    'tickets.idempotent-close',
    'answers 409 to closing a ticket that is already closed',
    'U7: closing a closed ticket answers 200 with the ticket.',
  ),
  F(
    'filter-priority-ignored',
    'contracts',
    'assumed',
    'tickets.filter-applied',
    'ignores the priority query parameter of the list',
    'U4: the status and priority query parameters filter the list.',
  ),
  F(
    'filter-stale-status',
    'contracts',
    'assumed',
    'tickets.filter-includes',
    'filters on the status a ticket was created with (a stale index): a closed ticket is missing from status=closed',
    'U4: a filtered list contains the tickets that match the filter.',
  ),
  F(
    'message-internal-dropped',
    'contracts',
    'assumed',
    'tickets.message-stored',
    'stores every message as public: internal: true is dropped',
    'U9: a message is stored with its body, author and internal flag.',
  ),
  F(
    'reply-keeps-pending',
    'contracts',
    'assumed',
    'tickets.status-transition',
    'leaves a pending ticket pending when the customer replies',
    'U1: a customer reply re-opens a pending ticket.',
  ),
  F(
    'unsupported-media-400',
    'contracts',
    'assumed',
    'tickets.status-code',
    'answers a body of the wrong media type with 400 instead of 415',
    'U20: a body that is not JSON → 415.',
  ),
  // --- contacts, macros, rules, reports (U10) -------------------------------------------------
  F(
    'contact-create-200',
    'contracts',
    'assumed',
    'resources.status-code',
    'answers the creation of a contact with 200 instead of 201',
    'U10: POST /v1/contacts → 201.',
  ),
  F(
    'contact-name-dropped',
    'contracts',
    'assumed',
    'resources.contact-echoed',
    'stores contacts without their name',
    'U10: a contact is stored with the email and name sent.',
  ),
  F(
    'list-skips-newest',
    'contracts',
    'assumed',
    'resources.listed',
    'leaves the newest contact and the newest rule out of their lists (an off-by-one at the page start)',
    'U10: a created contact or rule appears in its list.',
  ),
  F(
    'macro-tags-ignored',
    'contracts',
    'assumed',
    'resources.macro-applied',
    'applies a macro without its tags_add action',
    'U10: applying a macro performs all of its actions.',
  ),
  F(
    'rules-never-run',
    'contracts',
    'assumed',
    'resources.rule-applied',
    'stores rules but never runs them',
    'U10: an enabled rule acts on the tickets matching its event and conditions.',
  ),
  F(
    'rule-conditions-ignored',
    'contracts',
    'assumed',
    'resources.rule-conditions',
    'runs a rule on every ticket of its event, whatever its conditions',
    'U10: a rule leaves tickets that do not match its conditions alone.',
  ),
  F(
    'report-skips-normal',
    'contracts',
    'assumed',
    'resources.report-consistent',
    'leaves priority normal out of the summary report’s by_priority (total still counts them)',
    'U10: the summary report counts every ticket once by status and once by priority.',
  ),
  // --- validation ----------------------------------------------------------------------------
  F(
    'malformed-json-422',
    'contracts',
    'assumed',
    'validation.malformed-400',
    'answers malformed JSON with 422 instead of 400',
    'U20: malformed JSON → 400.',
  ),
  F(
    'body-too-large-400',
    'contracts',
    'assumed',
    'validation.too-large-413',
    'answers a body over 1 MiB with 400 instead of 413',
    'U26: a body over 1 MiB → 413.',
  ),
  F(
    'unknown-ticket-400',
    'contracts',
    'assumed',
    'validation.unknown-404',
    'answers an id it never issued with 400 (invalid id) instead of 404',
    'U21: an unknown ticket → 404.',
  ),
  F(
    'problem-status-400',
    'contracts',
    'assumed',
    'validation.problem-body',
    'writes status 400 into every problem body, whatever the HTTP status',
    'U16: an RFC 9457 problem body whose status is the HTTP status.',
  ),
  F(
    'validation-errors-missing',
    'contracts',
    'assumed',
    'validation.error-field-named',
    'answers 422 without the errors[] list of invalid fields',
    'U16: a validation problem lists each invalid field in errors[].',
  ),
  // --- auth and isolation -------------------------------------------------------------------
  F(
    'missing-key-accepted',
    'contracts',
    'documented',
    'auth.missing-key-rejected',
    'serves requests without an Authorization header (as the first workspace)',
    'Every API request is authenticated with a workspace API key.',
  ),
  F(
    'invalid-key-accepted',
    'contracts',
    'documented',
    'auth.invalid-key-rejected',
    'accepts any well-formed bearer token (as the first workspace)',
    'Every API request is authenticated with a workspace API key.',
  ),
  F(
    'no-www-authenticate',
    'contracts',
    'assumed',
    'auth.www-authenticate',
    'omits WWW-Authenticate on 401',
    'U17: 401 + WWW-Authenticate: Bearer.',
  ),
  F(
    'readonly-can-write',
    'contracts',
    'documented',
    'auth.readonly-forbidden',
    'lets a read-only key write',
    'A key is scoped either to read-only or to full access.',
  ),
  F(
    'rotated-key-works',
    'contracts',
    'documented',
    'auth.rotated-key-rejected',
    'keeps accepting a key after rotation',
    'Keys can be rotated at any time.',
  ),
  F(
    'cross-workspace-read',
    'contracts',
    'documented',
    'isolation.get-other-workspace',
    "serves another workspace's ticket by id",
    'Data is isolated per workspace.',
  ),
  F(
    'list-leaks-workspaces',
    'contracts',
    'documented',
    'isolation.list',
    'lists the tickets of every workspace',
    'Data is isolated per workspace.',
  ),
  F(
    'missing-key-403',
    'contracts',
    'assumed',
    'auth.missing-key-401',
    'answers a request without a key with 403 instead of 401',
    'U17: a missing key → 401.',
  ),
  F(
    'invalid-key-403',
    'contracts',
    'assumed',
    'auth.invalid-key-401',
    'answers a request with an unknown key with 403 instead of 401',
    'U18: an invalid key → 401.',
  ),
  F(
    'readonly-wrong-code',
    'contracts',
    'assumed',
    'auth.readonly-403',
    'refuses a read-only write with 403 but code forbidden instead of insufficient_scope',
    'U19: a write with a read-only key → 403, code insufficient_scope.',
  ),
  F(
    'readonly-cannot-read',
    'contracts',
    'documented',
    'auth.readonly-can-read',
    'refuses every request of a read-only key, reads too (403)',
    'A key is scoped either to read-only or to full access: a read-only key can read.',
  ),
  F(
    'rotated-new-key-inactive',
    'contracts',
    'assumed',
    'auth.rotation-new-key-works',
    'rejects the key a rotation issued (401): rotation locks the workspace out',
    'Keys can be rotated at any time: the new key works at once.',
  ),
  F(
    'foreign-403',
    'contracts',
    'assumed',
    'isolation.same-as-unknown',
    "answers another workspace's ticket with 403 instead of the unknown-ticket 404",
    "U21: another workspace's ticket is answered exactly as an unknown one.",
  ),
  F(
    'foreign-write-accepted',
    'contracts',
    'documented',
    'isolation.write-other-workspace',
    "applies another workspace's update, close and reply to a ticket (200/201)",
    'Data is isolated per workspace.',
  ),
  F(
    'foreign-write-applied-404',
    'contracts',
    'documented',
    'isolation.foreign-unchanged',
    "answers another workspace's PATCH with 404 but applies it",
    'Data is isolated per workspace.',
  ),
  F(
    'ratelimit-headers-missing-on-4xx',
    'contracts',
    'documented',
    'exchange.ratelimit-headers',
    'omits the X-RateLimit headers on 4xx responses',
    'Every response carries X-RateLimit-Limit, -Remaining, -Reset.',
  ),
  F(
    'ratelimit-remaining-negative',
    'contracts',
    'documented',
    'ratelimit.values-in-range',
    'X-RateLimit-Remaining below zero (the whole tokens left, negated, minus one)',
    'X-RateLimit-Remaining: requests left in the current window.',
  ),
  F(
    'ratelimit-limit-on-writes',
    'contracts',
    'documented',
    'ratelimit.limit-stable',
    'X-RateLimit-Limit shows the burst on writes and the requests per minute on reads',
    'X-RateLimit-Limit: requests per minute allowed (per API key).',
  ),
  F(
    'ratelimit-static-headers',
    'contracts',
    'assumed',
    'ratelimit.grants-within-remaining',
    'X-RateLimit-Limit 1, Remaining 0, Reset 0 on every 2xx',
    'U24: token bucket, Remaining = whole tokens left.',
  ),
  F(
    'ratelimit-remaining-frozen',
    'contracts',
    'assumed',
    'ratelimit.remaining-falls',
    'X-RateLimit-Remaining stuck at burst − 1 on every 2xx',
    'U24: token bucket, Remaining = whole tokens left.',
  ),
  // --- limits (judged by the load verdicts, load/lib) -------------------------------------------
  F(
    'burst-201',
    'limits',
    'documented',
    'burst',
    'bucket capacity one above the plan',
    'Team burst 200, Growth burst 1000.',
  ),
  F(
    'burst-150',
    'limits',
    'documented',
    'burst',
    'bucket capacity at 75 % of the plan',
    'Team burst 200, Growth burst 1000.',
  ),
  F(
    'rate-130',
    'limits',
    'documented',
    'rate',
    'refills at 130/120 of the plan rate',
    'Team 120/min, Growth 600/min.',
  ),
  F(
    'rate-100',
    'limits',
    'documented',
    'rate',
    'refills at 100/120 of the plan rate',
    'Team 120/min, Growth 600/min.',
  ),
  F(
    'fixed-window',
    'limits',
    'assumed',
    'algorithm',
    '`burst` requests per fixed window of burst/rate minutes',
    'U24: token bucket.',
  ),
  F(
    'sliding-window',
    'limits',
    'assumed',
    'algorithm',
    '`burst` requests per sliding window of burst/rate minutes',
    'U24: token bucket.',
  ),
  F(
    'remaining-off-by-one',
    'limits',
    'documented',
    'remaining-zero-on-429',
    'X-RateLimit-Remaining one higher than the truth',
    'X-RateLimit-Remaining: requests left.',
  ),
  F(
    'reset-ms',
    'limits',
    'assumed',
    'reset-unit',
    'X-RateLimit-Reset in epoch milliseconds',
    'U23: Reset in epoch seconds.',
  ),
  F(
    'no-retry-after',
    'limits',
    'assumed',
    'retry-after-present',
    '429 without Retry-After',
    'U22: 429 + Retry-After.',
  ),
  F(
    'shared-bucket',
    'limits',
    'documented',
    'scope',
    'one bucket per workspace instead of per key',
    'Limits apply per workspace, per API key.',
  ),
  F(
    'ratelimit-limit-is-burst',
    'limits',
    'documented',
    'limit-header',
    'X-RateLimit-Limit shows the burst instead of the requests per minute',
    'X-RateLimit-Limit: requests per minute allowed.',
  ),
  // --- webhooks -----------------------------------------------------------------------------
  F(
    'signature-reserialized',
    'webhooks',
    'documented',
    'webhook.signature-valid',
    'signs a re-serialisation of the JSON, sends the original bytes',
    'HMAC-SHA256 over the request body.',
  ),
  F(
    'signature-wrong-secret',
    'webhooks',
    'documented',
    'webhook.signature-valid',
    'signs with a secret other than the endpoint’s',
    'keyed by the secret.',
  ),
  F(
    'signature-uppercase',
    'webhooks',
    'documented',
    'webhook.signature-valid',
    'uppercase hex in the signature headers',
    'the hex HMAC-SHA256 (compared as text by receivers).',
  ),
  F(
    'signature-prefix-missing',
    'webhooks',
    'documented',
    'webhook.signature-valid',
    'X-Service-Signature without the sha256= prefix',
    'X-Service-Signature: sha256= followed by the hex HMAC.',
  ),
  F(
    'unsubscribed-event-delivered',
    'webhooks',
    'documented',
    'webhook.only-chosen-events',
    'delivers events the endpoint did not choose',
    'An endpoint receives only the events chosen for it.',
  ),
  F(
    'events-chosen-per-workspace',
    'webhooks',
    'documented',
    'webhook.only-chosen-events',
    'applies the event selection per workspace: every endpoint gets each event any endpoint of the workspace chose (a dashboard of one endpoint for the documented events and one for ticket.created only delivers them all to both)',
    'An endpoint receives only the events chosen for it.',
  ),
  F(
    'payload-customer-missing',
    'webhooks',
    'documented',
    'webhook.payload-schema',
    'omits customer from event payloads',
    'Payload: event, ticket, customer.',
  ),
  F(
    'no-retry-on-503',
    'webhooks',
    'assumed',
    'webhook.retried-after-5xx',
    'gives up after a 503',
    'U14: retry on 5xx with backoff.',
  ),
  F(
    'sla-at-risk-never',
    'webhooks',
    'documented',
    'webhook.sla-at-risk-fired',
    'never sends sla.at_risk',
    'sla.at_risk: a ticket crosses its at-risk threshold.',
  ),
  F(
    'webhook-content-type-text',
    'webhooks',
    'documented',
    'webhook.content-type',
    'sends deliveries as text/plain',
    'Webhook delivery Content-Type: application/json.',
  ),
  F(
    'customer-replied-never',
    'webhooks',
    'documented',
    'webhook.event-delivered',
    'never sends customer.replied',
    'customer.replied: a customer reply.',
  ),
  F(
    'payload-ticket-url-missing',
    'webhooks',
    'documented',
    'webhook.payload-schema',
    'omits ticket.url from event payloads',
    'Payload: ticket object: id, subject, status, priority, url.',
  ),
  F(
    'payload-envelope-only',
    'webhooks',
    'assumed',
    'webhook.event-shape',
    'sends exactly the documented envelope {event, ticket, customer}: no occurred_at, no event extras (ticket.replied without its message)',
    'U13: every event uses the envelope plus its event-specific extras (the docs give the envelope only).',
  ),
  F(
    'ticket-replied-never',
    'webhooks',
    'documented',
    'webhook.event-delivered',
    'never sends ticket.replied (customer.replied and agent.replied still fire)',
    'ticket.replied: an agent or a customer adds a message.',
  ),
];

/** The name of a fault of the catalogue: a typo in `faults.has(…)` is a compile error. */
export type FaultName = (typeof FAULTS)[number]['name'];

export const FAULT_NAMES: ReadonlySet<string> = new Set<string>(FAULTS.map((f) => f.name));

export function isFaultName(name: string): name is FaultName {
  return FAULT_NAMES.has(name);
}

/** The set of active faults, validated: an unknown name is a usage error, not a silent no-op. */
export class FaultSet {
  private readonly on: Set<FaultName>;

  constructor(names: Iterable<string> = []) {
    this.on = new Set();
    for (const raw of names) {
      const name = raw.trim();
      if (!name) continue;
      if (!isFaultName(name)) {
        throw new Error(
          `unknown fault '${name}'; known faults: ${[...FAULT_NAMES].sort().join(', ')}`,
        );
      }
      this.on.add(name);
    }
  }

  has(name: FaultName): boolean {
    return this.on.has(name);
  }

  list(): FaultName[] {
    return [...this.on].sort();
  }
}
