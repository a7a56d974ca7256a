/**
 * The fault catalogue: named switches, each ONE deviation from the contract, each naming the
 * harness check that must catch it. `--fault a,b` (serve / npm start) and
 * `startService({ faults })` turn them on. The harness's detection self-tests run every entry.
 *
 * `check` names a contract or webhook check of core/checks (area `contracts` / `webhooks`) or a
 * load verdict id of core/checks/load-verdicts.ts (area `limits`); a typo in either is a compile
 * error. The rule a fault breaks, and its provenance, are that check's (`ruleOf`): written once,
 * where the check is.
 */
import { ALL_CHECKS, type CheckName } from '../core/checks/all.ts';
import { type VerdictId, verdictRule } from '../core/checks/load-verdicts.ts';
import type { Check } from '../core/checks/types.ts';

type Provenance = Check['provenance'];

export type FaultArea = 'contracts' | 'limits' | 'webhooks';

export interface Fault<N extends string = string> {
  name: N;
  area: FaultArea;
  /** What the deployment does wrong. */
  does: string;
  /** The check (or load verdict) that must fail. */
  check: string;
  /**
   * Other checks this one deviation fails too, each with why that failure is its own rule's and
   * not a second judge of the fault's (or a check mistaking the deployment's normal behaviour for
   * a break). The detection matrix fails on any other check that fails with the fault on, and on
   * an entry here that no longer fails.
   */
  alsoFails?: readonly AlsoFails[];
  /**
   * `unchecked`: the deviation keeps its check from being checked instead of failing it (the
   * target's own answers stand in the rule's place, as a 429 to every request without a valid
   * key does for authentication). Caught when the run names the check among the documented rules
   * the target kept from being checked (report/rule-coverage.ts: the run is not a pass, exit 2)
   * and no check fails that the catalogue does not list.
   */
  caughtAs?: 'unchecked';
}

/** A check that fails beside a fault's named one, and why. */
export interface AlsoFails {
  check: string;
  why: string;
}

/**
 * One catalogue entry. A contract or webhook fault names a registered check, a limits fault a
 * load verdict id.
 */
const F = <const N extends string, Ar extends FaultArea>(
  name: N,
  area: Ar,
  check: Ar extends 'limits' ? VerdictId : CheckName,
  does: string,
  alsoFails?: ReadonlyArray<{ check: CheckName; why: string }>,
): Fault<N> => ({ name, area, check, does, ...(alsoFails ? { alsoFails } : {}) });

const CHECKS = new Map<string, { provenance: Provenance; rule: string }>(
  ALL_CHECKS.map((c) => [c.name, c]),
);

/**
 * The rule a fault breaks and its provenance: its check's, or for a limits fault its load
 * verdict's (the gap first when assumed, provenance as a verdict's failure carries it).
 */
export function ruleOf(f: Fault): { provenance: Provenance; rule: string } {
  if (f.area === 'limits') {
    const v = verdictRule(f.check as VerdictId);
    return {
      provenance: v.provenance === 'documented' ? 'documented' : 'assumed',
      rule: v.gap ? `${v.gap}: ${v.title}` : v.title,
    };
  }
  const c = CHECKS.get(f.check);
  if (!c) throw new Error(`fault ${f.name} names unknown check '${f.check}'`);
  return { provenance: c.provenance, rule: c.rule };
}

export const FAULTS = [
  // --- tickets ------------------------------------------------------------------------------
  F(
    'create-status-new',
    'contracts',
    'ticket.created-status-open',
    'answers a creation with status `new`',
    [
      {
        check: 'exchange.response-schema',
        why: "status `new` is not one of the statuses the spec's Ticket schema allows (U1: open, pending, on_hold, closed): the same answer breaks the assumed status set, a rule of its own beside the documented status at creation",
      },
    ],
  ),
  F(
    'created-at-no-utc',
    'contracts',
    'ticket.timestamps-utc',
    'writes created_at without a UTC designator (local time, no Z)',
    [
      {
        check: 'exchange.response-schema',
        why: "the spec's Ticket schema types created_at as an RFC 3339 date-time ending in Z, and a time without a zone designator is none: the assumed schema, judged on every body, holds the same format the documented rule does",
      },
    ],
  ),
  F('sla-missing', 'contracts', 'ticket.sla-present', 'omits the sla object from tickets', [
    {
      check: 'exchange.response-schema',
      why: "the spec's Ticket schema lists sla as required (assumed, judged on every body): the same absence the documented ticket.sla-present names",
    },
  ]),
  F(
    'sla-ignores-priority',
    'contracts',
    'ticket.sla-by-priority',
    'gives every priority the same SLA target',
  ),
  F(
    'priority-ignored',
    'contracts',
    'ticket.priority-echoed',
    'stores every ticket as priority normal',
    [
      {
        check: 'resources.macro-applied',
        why: "the Escalate macro's action sets priority high, and a deployment that stores no priority ignores it there too: the macro is not applied as defined, the macro rule's own failure",
      },
    ],
  ),
  F(
    'requester-not-echoed',
    'contracts',
    'ticket.requester-echoed',
    'drops requester.name from tickets',
  ),
  F(
    'missing-requester-500',
    'contracts',
    'exchange.no-5xx',
    'answers 500 when requester is missing',
  ),
  // --- input as people type it: 5xx on valid or merely over-long input, text not kept ---------
  F(
    'subject-astral-500',
    'contracts',
    'exchange.no-5xx',
    'answers 500 to a creation whose subject holds a character outside the Basic Multilingual Plane (an emoji): a 3-byte utf8 column refuses the insert',
  ),
  F(
    'subject-over-300-500',
    'contracts',
    'exchange.no-5xx',
    'answers 500 to a creation whose subject is longer than 300 characters: it is written to a 300-character index before the body is validated (256–300 still get the 422)',
  ),
  F(
    'tags-over-20-500',
    'contracts',
    'exchange.no-5xx',
    'answers 500 to a creation with more than 20 tags (20 tag slots), though 50 are valid',
  ),
  F(
    'subject-astral-replaced',
    'contracts',
    'ticket.subject-echoed',
    'stores a new ticket’s subject with every character outside the Basic Multilingual Plane replaced by "?" (a 3-byte utf8 column in lenient mode)',
  ),
  F(
    'list-without-tickets',
    'contracts',
    'tickets.list-holds-tickets',
    'answers the list envelope without its tickets (no data)',
    [
      {
        check: 'tickets.list-envelope',
        why: 'the assumed envelope {data, has_more, next_cursor} (U4) misses its data too: the same missing list, judged against the envelope',
      },
      {
        check: 'exchange.response-schema',
        why: "the spec's list schema requires data (U4), judged on every list answer: the same missing list",
      },
      {
        check: 'tickets.filter-includes',
        why: 'a filtered list is the same list without its tickets: the matching ticket cannot be in it (U4)',
      },
      {
        check: 'tickets.filter-applied',
        why: 'a filtered list without its tickets shows nothing the filter could be judged on, and the check reads that as not applied (U4)',
      },
    ],
  ),
  F(
    'list-default-limit-zero',
    'contracts',
    'tickets.list-holds-tickets',
    'lists no ticket when the request gives no limit (its default page size is 0)',
  ),
  F(
    'pagination-overlap',
    'contracts',
    'tickets.pagination-walk',
    'repeats the last item of a page at the top of the next',
  ),
  F(
    'pagination-skips-one',
    'contracts',
    'tickets.pagination-walk',
    'leaves out the first item after each cursor (a gap between pages)',
  ),
  F(
    'close-keeps-status',
    'contracts',
    'tickets.close',
    'answers close with 200 but leaves the status unchanged (PATCH {status: closed} and macros still close)',
  ),
  F(
    'subject-not-required',
    'contracts',
    'validation.invalid-rejected',
    'creates a ticket without a subject (a placeholder subject)',
  ),
  F(
    'sla-reversed',
    'contracts',
    'ticket.sla-priority-order',
    'gives high priority the longest first-response target and low the shortest (24 h / 1 h)',
  ),
  F(
    'get-priority-normal',
    'contracts',
    'tickets.get-matches',
    'shows priority normal for every ticket read by id (the read path drops the column)',
  ),
  F(
    'patch-subject-ignored',
    'contracts',
    'tickets.merge-patch',
    'answers a PATCH with 200 but drops the subject it carries',
  ),
  F(
    'filter-stale-status',
    'contracts',
    'tickets.filter-includes',
    'filters status=closed on the status a ticket was created with (a stale index): a ticket closed since is missing from status=closed',
  ),
  // --- contacts, macros, rules, reports (U10) -------------------------------------------------
  F(
    'contact-name-dropped',
    'contracts',
    'resources.contact-echoed',
    'stores contacts without their name',
  ),
  F(
    'list-skips-newest',
    'contracts',
    'resources.listed',
    'leaves the newest contact and the newest rule out of their lists (an off-by-one at the page start)',
  ),
  F(
    'macro-tags-ignored',
    'contracts',
    'resources.macro-applied',
    'applies a macro without its tags_add action',
  ),
  F('rules-never-run', 'contracts', 'resources.rule-applied', 'stores rules but never runs them'),
  F(
    'rule-conditions-ignored',
    'contracts',
    'resources.rule-conditions',
    'runs a rule on every ticket of its event, whatever its conditions',
  ),
  F(
    'rules-cross-workspace',
    'contracts',
    'isolation.rules-own-workspace',
    "runs a workspace's rules on every workspace's tickets (the rule's workspace is not compared)",
  ),
  F(
    'report-skips-normal',
    'contracts',
    'resources.report-consistent',
    'leaves priority normal out of the summary report’s by_priority (total still counts them)',
  ),
  F(
    'report-counts-every-workspace',
    'contracts',
    'isolation.count',
    "counts every workspace's tickets in the summary report (a workspace learns the others' counts)",
  ),
  // --- validation ----------------------------------------------------------------------------
  F(
    'body-too-large-400',
    'contracts',
    'validation.too-large-413',
    'answers a body over 1 MiB with 400 instead of 413',
  ),
  F(
    'problem-status-400',
    'contracts',
    'validation.problem-body',
    'writes status 400 into every problem body, whatever the HTTP status',
  ),
  F(
    'validation-errors-missing',
    'contracts',
    'validation.error-field-named',
    'answers 422 without the errors[] list of invalid fields',
  ),
  // --- auth and isolation -------------------------------------------------------------------
  F(
    'missing-key-accepted',
    'contracts',
    'auth.missing-key-rejected',
    'serves requests without an Authorization header (as the first workspace)',
    [
      {
        check: 'auth.missing-key-401',
        why: "served as the first workspace, a request without a key for an object of the run's workspace (the rule matrix's by-id cells) is answered 404 — not found in the workspace it was wrongly given: a refusal by accident, so the documented rule holds there and the 401 U17 asks for does not; the same acceptance seen through an id that workspace does not hold",
      },
    ],
  ),
  F(
    'invalid-key-accepted',
    'contracts',
    'auth.invalid-key-rejected',
    'accepts any well-formed bearer token it never issued (as the first workspace); a rotated or revoked key is still refused',
    [
      {
        check: 'auth.invalid-key-401',
        why: "served as the first workspace, a request with an unknown key for an object of the run's workspace (the rule matrix's by-id cells) is answered 404 — not found in the workspace it was wrongly given: a refusal by accident, so the documented rule holds there and the 401 U18 asks for does not; the same acceptance seen through an id that workspace does not hold",
      },
    ],
  ),
  {
    ...F(
      'keyless-429',
      'contracts',
      'auth.missing-key-rejected',
      'answers every request without a valid key (none, unknown, rotated, not a bearer token) 429 with Remaining 0 — its limiter in front of authentication, its keyless bucket empty: whether it authenticates them is never seen',
    ),
    caughtAs: 'unchecked' as const,
  },
  F(
    'get-ticket-no-auth',
    'contracts',
    'auth.missing-key-rejected',
    'GET /v1/tickets/{id} without an Authorization header serves the ticket, whichever workspace it is in (one route the guard lets through when no key is sent; a key that is sent is still checked)',
  ),
  F(
    'malformed-authorization-accepted',
    'contracts',
    'auth.malformed-authorization-rejected',
    'serves a request whose Authorization is not a bearer token (Basic …, or Bearer with no token) as the first workspace',
  ),
  F(
    '401-with-data',
    'contracts',
    'auth.refusal-carries-no-data',
    'refuses a request for its key (none, unknown, malformed) as it should, but its problem body carries the latest three tickets the service stored, whichever workspace’s (an extension member `tickets`)',
  ),
  F('readonly-can-write', 'contracts', 'auth.readonly-forbidden', 'lets a read-only key write'),
  F(
    'rotated-key-works',
    'contracts',
    'auth.rotated-key-rejected',
    'keeps accepting a key after rotation',
  ),
  F(
    'cross-workspace-read',
    'contracts',
    'isolation.get-other-workspace',
    "serves another workspace's ticket by id",
  ),
  F('list-leaks-workspaces', 'contracts', 'isolation.list', 'lists the tickets of every workspace'),
  F(
    'get-contact-cross-workspace',
    'contracts',
    'isolation.get-other-workspace',
    "serves another workspace's contact by id (GET /v1/contacts/{id}); tickets stay isolated",
  ),
  F(
    'readonly-cannot-read',
    'contracts',
    'auth.readonly-can-read',
    'refuses every request of a read-only key, reads too (403)',
    [
      {
        check: 'exchange.documented-status',
        why: "the spec lists 403 only where a read-only key may be refused (writes): a 403 to a read is outside the read operation's list of statuses, judged on every answer",
      },
    ],
  ),
  F(
    'rotated-new-key-inactive',
    'contracts',
    'auth.rotation-new-key-works',
    'rejects the key a rotation issued (401): rotation locks the workspace out',
  ),
  F(
    'foreign-write-accepted',
    'contracts',
    'isolation.write-other-workspace',
    "applies another workspace's update, close and reply to a ticket (200/201)",
  ),
  F(
    'foreign-write-applied-404',
    'contracts',
    'isolation.foreign-unchanged',
    "answers another workspace's PATCH with 404 but applies it",
  ),
  F(
    'ratelimit-headers-missing-on-4xx',
    'contracts',
    'exchange.ratelimit-headers',
    'omits the X-RateLimit headers on 4xx responses',
  ),
  F(
    'ratelimit-remaining-negative',
    'contracts',
    'ratelimit.values-in-range',
    'X-RateLimit-Remaining below zero (the whole tokens left, negated, minus one)',
  ),
  F(
    '429-remaining-positive',
    'contracts',
    'ratelimit.refused-none-left',
    'a 429 says one request is left (X-RateLimit-Remaining 1: the token still refilling counted); 2xx answers count right',
  ),
  F(
    'ratelimit-limit-on-writes',
    'contracts',
    'ratelimit.limit-stable',
    'X-RateLimit-Limit shows the burst on writes and the requests per minute on reads',
    [
      {
        check: 'ratelimit.plan-limit',
        why: "the burst shown on writes (1000 on Growth) is not the requests per minute of the key's declared plan (600): a Limit that differs between reads and writes cannot be the plan's on both, so the same headers break the documented plan rule (the load area's limit-header) beside the stability one",
      },
    ],
  ),
  F(
    'team-limit-header-600',
    'contracts',
    'ratelimit.plan-limit',
    'X-RateLimit-Limit 600 (the Growth rate) on every answer to a key of a Team workspace; the bucket still refills at 120/min',
  ),
  F(
    'bare-prefix-outside-api',
    'contracts',
    'ratelimit.plan-limit',
    "the bare /v1 (no route) is taken for a request outside the API: answered from the per-address bucket, with its X-RateLimit-Limit instead of the key's plan",
  ),
  F(
    'absolute-form-outside-api',
    'contracts',
    'ratelimit.plan-limit',
    "an absolute-form request target no route matches (GET http://host/v1/…) is taken for one outside the API: answered from the per-address bucket, with its X-RateLimit-Limit instead of the key's plan",
  ),
  F(
    'ratelimit-static-headers',
    'contracts',
    'ratelimit.grants-within-remaining',
    'X-RateLimit-Limit 1, Remaining 0, Reset 0 on every 2xx',
    [
      {
        check: 'ratelimit.plan-limit',
        why: "the static Limit 1 is not the requests per minute of the key's declared plan (Growth 600): the one set of frozen headers breaks the documented plan rule on its Limit, as it breaks the budget rule (grants-within-remaining) on its Remaining",
      },
    ],
  ),
  F(
    'ratelimit-remaining-frozen',
    'contracts',
    'ratelimit.remaining-falls',
    'X-RateLimit-Remaining stuck at burst − 1 on every 2xx',
  ),
  F(
    'json-as-text-plain',
    'contracts',
    'exchange.json-body',
    'labels every 2xx JSON answer of the API Content-Type text/plain (the body is still JSON)',
  ),
  // --- limits (judged by the load verdicts, load/lib) -------------------------------------------
  F('burst-201', 'limits', 'burst', 'bucket capacity one above the plan'),
  F('burst-150', 'limits', 'burst', 'bucket capacity at 75 % of the plan'),
  F('rate-130', 'limits', 'rate', 'refills at 130/120 of the plan rate'),
  F('rate-100', 'limits', 'rate', 'refills at 100/120 of the plan rate'),
  F(
    'starves-past-burst',
    'limits',
    'rate-held',
    'a refused request takes the part of a token the bucket holds: once drained, a client sending faster than the refill is never granted again (0 a minute on a plan of 120)',
  ),
  F(
    'remaining-off-by-one',
    'limits',
    'remaining-zero-on-429',
    'X-RateLimit-Remaining one higher than the truth',
  ),
  F(
    'global-bucket',
    'limits',
    'other-workspace',
    'one bucket for every key of every workspace: draining one workspace refuses all others',
  ),
  F(
    'ratelimit-limit-is-burst',
    'limits',
    'limit-header',
    'X-RateLimit-Limit shows the burst instead of the requests per minute',
  ),
  // --- webhooks -----------------------------------------------------------------------------
  F(
    'signature-reserialized',
    'webhooks',
    'webhook.signature-valid',
    'signs a re-serialisation of the JSON, sends the original bytes',
  ),
  F(
    'signature-wrong-secret',
    'webhooks',
    'webhook.signature-valid',
    'signs with a secret other than the endpoint’s',
  ),
  F(
    'signature-uppercase',
    'webhooks',
    'webhook.signature-valid',
    'uppercase hex in the signature headers',
  ),
  F(
    'signature-prefix-missing',
    'webhooks',
    'webhook.signature-valid',
    'X-Service-Signature without the sha256= prefix',
  ),
  F(
    'unsubscribed-event-delivered',
    'webhooks',
    'webhook.only-chosen-events',
    'delivers events the endpoint did not choose',
  ),
  F(
    'events-chosen-per-workspace',
    'webhooks',
    'webhook.only-chosen-events',
    'applies the event selection per workspace: every endpoint gets each event any endpoint of the workspace chose (a dashboard of one endpoint for the documented events and one for ticket.created only delivers them all to both)',
  ),
  F(
    'payload-customer-missing',
    'webhooks',
    'webhook.payload-schema',
    'omits customer from event payloads',
    [
      {
        check: 'webhook.event-shape',
        why: 'the events the docs do not name (U12: agent.replied, ticket.note_added, ticket.status_changed, macro.applied, sla.at_risk) have no documented payload to hold them to: their assumed shape, which carries the same envelope, is their only judge — on the documented events webhook.payload-schema alone judges it',
      },
    ],
  ),
  F('sla-at-risk-never', 'webhooks', 'webhook.sla-at-risk-fired', 'never sends sla.at_risk'),
  F(
    'webhook-content-type-text',
    'webhooks',
    'webhook.content-type',
    'sends deliveries as text/plain',
  ),
  F(
    'customer-replied-never',
    'webhooks',
    'webhook.event-delivered',
    'never sends customer.replied',
  ),
  F(
    'payload-ticket-url-missing',
    'webhooks',
    'webhook.payload-schema',
    'omits ticket.url from event payloads',
    [
      {
        check: 'webhook.event-shape',
        why: 'the events the docs do not name (U12: agent.replied, ticket.note_added, ticket.status_changed, macro.applied, sla.at_risk) have no documented payload to hold them to: their assumed shape, which carries the same envelope, is their only judge — on the documented events webhook.payload-schema alone judges it',
      },
    ],
  ),
  F(
    'ticket-replied-never',
    'webhooks',
    'webhook.event-delivered',
    'never sends ticket.replied (customer.replied and agent.replied still fire)',
  ),
  // --- what a delivery is about (core/webhooks/delivery-ledger.ts) ----------------------------
  F(
    'deliveries-cross-workspace',
    'webhooks',
    'webhook.workspace-isolated',
    "delivers every workspace's events to every endpoint subscribed to them: workspace B's tickets reach workspace A's (dashboard) endpoints",
  ),
  F(
    'payload-customer-agent',
    'webhooks',
    'webhook.customer-is-requester',
    "names the agent (Support Agent, agent@desk.example) as every payload's customer instead of the ticket's requester",
  ),
  F(
    'closed-payload-status-open',
    'webhooks',
    'webhook.ticket-matches-api',
    "sends ticket.closed with the ticket's status still open",
  ),
  F(
    'https-deliveries-lost',
    'webhooks',
    'webhook.https-delivered',
    'never delivers to an https:// endpoint (a receiver with a certificate the endpoint is trusted by gets nothing)',
  ),
  F(
    'deliveries-sent-twice',
    'webhooks',
    'webhook.delivered-once',
    'sends every delivery a second time, with the same delivery id, right after the receiver answered it 2xx',
  ),
  F(
    'close-delivers-created',
    'webhooks',
    'webhook.event-caused',
    'closing a ticket also delivers a second ticket.created for it',
  ),
  F(
    'webhook-body-latin1',
    'webhooks',
    'webhook.content-type',
    'encodes delivery bodies as Latin-1 under Content-Type application/json (signed as sent): a customer named Zoë arrives as invalid UTF-8',
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
