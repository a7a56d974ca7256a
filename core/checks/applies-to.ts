/**
 * The rule × operation matrix's vocabulary: which columns of the spec (its operations and webhook
 * events) a rule applies to, and what request the matrix sends to judge it there.
 *
 * A check declares `appliesTo: { columns, send? }` (core/checks/catalogue/): `columns` names a
 * predicate over the spec's columns below (every operation, the writes by `x-scope`, the
 * operations with a path id, the lists, every webhook event …); `send` names the request of the
 * matrix that the rule judges (no key, an unknown key, …; contracts/rule-matrix.spec.ts sends each
 * kind once per operation, for every rule that asks for it); no `send`: the rule judges every
 * answer the suite gets for that column (the exchange checks). So a rule added to the catalogue
 * with an existing predicate and request, or an operation added to the spec, grows the matrix
 * without new test code; `matrixPlan` is what the suite sends, `report/rule-matrix.ts` what the
 * reports show.
 */
import type { Exchange } from '../http/exchange.ts';
import type { OperationSpec, Provenance, WebhookSpec } from '../spec/operations.ts';

/** One column of the matrix: an operation of the spec, or a webhook event it sends. */
export type MatrixColumn =
  | { kind: 'operation'; id: string; label: string; provenance: Provenance; op: OperationSpec }
  | { kind: 'webhook'; id: string; label: string; provenance: Provenance; event: string };

/** The columns of a spec: its operations in order, then its webhook events. */
export function matrixColumns(
  ops: readonly OperationSpec[],
  events: readonly WebhookSpec[],
): MatrixColumn[] {
  return [
    ...ops.map(
      (op): MatrixColumn => ({
        kind: 'operation',
        id: op.operationId,
        label: `${op.method} ${op.template}`,
        provenance: op.provenance,
        op,
      }),
    ),
    ...events.map(
      (e): MatrixColumn => ({
        kind: 'webhook',
        id: webhookColumnId(e.event),
        label: e.event,
        provenance: e.provenance,
        event: e.event,
      }),
    ),
  ];
}

/** The column id of a webhook event (operation ids have no dot or colon). */
export const webhookColumnId = (event: string) => `webhook:${event}`;

const NOT_AN_API_ANSWER =
  'a webhook delivery is the service’s own request to a receiver, authenticated by its signature (Authentication 7): no key, no API answer';
const NOT_A_DELIVERY = 'an API operation, not a webhook delivery';

const api = (test: (op: OperationSpec) => boolean, why: (op: OperationSpec) => string) => ({
  test: (c: MatrixColumn) => c.kind === 'operation' && test(c.op),
  notApplicable: (c: MatrixColumn) => (c.kind === 'operation' ? why(c.op) : NOT_AN_API_ANSWER),
});

/** The predicates a rule may apply over: its name, what it reads as, and why a column is out. */
export const COLUMN_SETS = {
  'every-operation': {
    describe: 'every operation of the spec',
    ...api(
      () => true,
      () => '',
    ),
  },
  writes: {
    describe: 'every write (x-scope: write)',
    ...api(
      (op) => op.scope === 'write',
      () => 'not a write (x-scope: read): a read-only key may call it',
    ),
  },
  reads: {
    describe: 'every read (x-scope: read)',
    ...api(
      (op) => op.scope === 'read',
      () => 'a write (x-scope: write): a read-only key is refused it',
    ),
  },
  'by-id': {
    describe: 'every operation with a path id',
    ...api(
      (op) => op.pathParams.length > 0,
      () => 'no object id in the path (lists and creations are judged by the list rule)',
    ),
  },
  'by-id-reads': {
    describe: 'every read with a path id',
    ...api(
      (op) => op.pathParams.length > 0 && op.scope === 'read',
      (op) =>
        op.pathParams.length === 0
          ? 'no object id in the path'
          : 'a write: isolation.write-other-workspace judges it',
    ),
  },
  'by-id-writes': {
    describe: 'every write with a path id',
    ...api(
      (op) => op.pathParams.length > 0 && op.scope === 'write',
      (op) =>
        op.pathParams.length === 0
          ? 'no object id in the path'
          : 'a read: isolation.get-other-workspace judges it',
    ),
  },
  lists: {
    describe: 'every list (a GET whose 200 body has a data array) and each of its filters',
    ...api(
      (op) => op.list,
      () => 'not a list: no rows of another workspace to look for',
    ),
  },
  counts: {
    describe:
      "every read whose 200 body counts a list's objects (an integer `total` under the list's name: the summary report's `tickets.total`)",
    ...api(
      (op) => op.counts.length > 0,
      () => "counts no list's objects: no total of another workspace's to look for",
    ),
  },
  'every-event': {
    describe: 'every webhook event of the spec',
    test: (c: MatrixColumn) => c.kind === 'webhook',
    notApplicable: () => NOT_A_DELIVERY,
  },
} as const;

export type ColumnSetName = keyof typeof COLUMN_SETS;

/**
 * The requests of the matrix (contracts/rule-matrix.spec.ts sends each once per operation for
 * all the rules that ask for it). What each sends, and what it needs of the target.
 */
export const MATRIX_SENDS = {
  'no-key': { title: 'without a key', describe: 'no Authorization header' },
  'unknown-key': {
    title: 'with an unknown key',
    describe: 'Authorization: Bearer <a key no deployment issued>',
  },
  'malformed-authorization': {
    title: 'with a malformed Authorization',
    describe:
      'Authorization that is not a bearer token: Basic <user:pass>, and Bearer with no token',
  },
  'read-only-key': {
    title: 'with the read-only key',
    describe: 'the read-only key (HARNESS_READONLY_KEY)',
  },
  'other-workspace': {
    title: "with the other workspace's key",
    describe:
      "the other workspace's key (HARNESS_OTHER_WORKSPACE_KEY): on workspace A's object and on an unknown id; on a list and each of its filters; on a count, then its own list walked to the end",
  },
} as const;

export type MatrixSend = keyof typeof MATRIX_SENDS;

/**
 * What a rule of the matrix needs beyond its request: `declared-plan` — a key of the run listed
 * under a plan (HARNESS_TEAM_KEYS, …), or the rule has nothing to hold an answer to.
 */
export type MatrixRequirement = 'declared-plan';

/** A check's place in the matrix. */
export interface AppliesTo {
  columns: ColumnSetName;
  /** The matrix request(s) it judges; none: every answer the suite gets for the column. */
  send?: readonly MatrixSend[];
  requires?: readonly MatrixRequirement[];
}

/**
 * What the matrix hands every check it applies (each reads its part): the operation, the object
 * of workspace A the request named, the same request on an unknown id, and for a list the ids of
 * workspace A's objects and those the other workspace was shown.
 */
export interface MatrixArgs {
  operation: string;
  /** Workspace A's object the path names (a ticket, a contact, …; the isolation checks' `ticket`). */
  ticket?: Record<string, unknown>;
  unknown?: Exchange;
  /**
   * Whose objects the request's body names, when it names any (the other workspace's by-id write:
   * its own, else A's and why) — for the failure to say what was sent.
   */
  body?: string;
  foreignIds?: string[];
  seen?: string[];
  /**
   * A count's answer (the other workspace's): where the count is in its body (from the spec), the
   * list it counts, and how many objects that list showed the same key, walked to its end after.
   */
  count?: { path: readonly string[]; collection: string; listed: number };
}

/** A rule of the matrix: a check that declares where it applies. */
export interface MatrixRule {
  name: string;
  provenance: Provenance;
  rule: string;
  appliesTo: AppliesTo;
}

/** The checks that declare `appliesTo`, documented first, then by name: the matrix's rows. */
export function matrixRules(
  all: ReadonlyArray<{ name: string; provenance: Provenance; rule: string; appliesTo?: AppliesTo }>,
): MatrixRule[] {
  return all
    .filter((c): c is MatrixRule => c.appliesTo !== undefined)
    .sort(
      (a, b) =>
        Number(a.provenance !== 'documented') - Number(b.provenance !== 'documented') ||
        a.name.localeCompare(b.name),
    );
}

export const appliesToColumn = (r: MatrixRule, c: MatrixColumn) =>
  COLUMN_SETS[r.appliesTo.columns].test(c);

/** One request kind the matrix sends for an operation, and the rules it judges there. */
export interface PlannedSend {
  send: MatrixSend;
  checks: string[];
}

/** What the matrix sends for one operation: each request kind once, for every rule asking. */
export function matrixPlan(op: OperationSpec, rules: readonly MatrixRule[]): PlannedSend[] {
  const col = matrixColumns([op], [])[0]!;
  const out = new Map<MatrixSend, string[]>();
  for (const send of Object.keys(MATRIX_SENDS) as MatrixSend[]) {
    const checks = rules
      .filter((r) => r.appliesTo.send?.includes(send) && appliesToColumn(r, col))
      .map((r) => r.name);
    if (checks.length > 0) out.set(send, checks);
  }
  return [...out].map(([send, checks]) => ({ send, checks }));
}

/** The rules that judge every answer of the column (no request of their own). */
export function everyAnswerRules(col: MatrixColumn, rules: readonly MatrixRule[]): MatrixRule[] {
  return rules.filter((r) => !r.appliesTo.send && appliesToColumn(r, col));
}
