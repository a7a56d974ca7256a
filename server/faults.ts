/**
 * The fault catalogue: named switches, each ONE deviation from the contract, each naming the
 * rule it breaks and the harness check that must catch it. `--fault a,b` (serve / npm start) and
 * `startService({ faults })` turn them on. The harness's detection self-tests run every entry.
 *
 * `check` names a contract or webhook check of src/checks (area `contracts` / `webhooks`) or a
 * load verdict id of load/lib/verdicts.ts (area `limits`); a test fails when one does not exist.
 */
export type FaultArea = 'contracts' | 'limits' | 'webhooks';

export interface Fault {
  name: string;
  area: FaultArea;
  /** What the deployment does wrong. */
  does: string;
  /** The rule it breaks: a documented sentence, or an assumption with its gap. */
  breaks: string;
  provenance: 'documented' | 'assumed';
  /** The check (or load verdict / webhook property) that must fail. */
  check: string;
}

const F = (
  name: string,
  area: FaultArea,
  provenance: Fault['provenance'],
  check: string,
  does: string,
  breaks: string,
): Fault => ({ name, area, provenance, check, does, breaks });

export const FAULTS: readonly Fault[] = [
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
    'ratelimit-headers-missing-on-4xx',
    'contracts',
    'documented',
    'exchange.ratelimit-headers',
    'omits the X-RateLimit headers on 4xx responses',
    'Every response carries X-RateLimit-Limit, -Remaining, -Reset.',
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
    'ticket-replied-never',
    'webhooks',
    'documented',
    'webhook.event-delivered',
    'never sends ticket.replied (customer.replied and agent.replied still fire)',
    'ticket.replied: an agent or a customer adds a message.',
  ),
];

export const FAULT_NAMES = new Set(FAULTS.map((f) => f.name));

/** The set of active faults, validated: an unknown name is a usage error, not a silent no-op. */
export class FaultSet {
  private readonly on: Set<string>;

  constructor(names: Iterable<string> = []) {
    this.on = new Set();
    for (const raw of names) {
      const name = raw.trim();
      if (!name) continue;
      if (!FAULT_NAMES.has(name)) {
        throw new Error(
          `unknown fault '${name}'; known faults: ${[...FAULT_NAMES].sort().join(', ')}`,
        );
      }
      this.on.add(name);
    }
  }

  has(name: string): boolean {
    return this.on.has(name);
  }

  list(): string[] {
    return [...this.on].sort();
  }
}

export function faultByName(name: string): Fault | undefined {
  return FAULTS.find((f) => f.name === name);
}
