/** Authentication, scopes, rotation and isolation. */
import { sameJson } from '../../json-equal.ts';
import type { AppliesTo, MatrixArgs } from '../applies-to.ts';
import { show } from '../failure.ts';
import { body } from './answer.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';

const status = (ex: Exchange) => ex.response?.status;
const ok = (s?: number) => s !== undefined && s >= 200 && s < 300;

/**
 * Where a refinement is judged: which rejection (401, 403 insufficient_scope, served as unknown)
 * refines the documented rule that the request is rejected at all, so it is judged only on an
 * answer that is a rejection — an accepted request is that documented rule's verdict alone, in
 * every test and every cell of the rule matrix (one fault, one failure).
 */
const refused = (ex: Exchange) => {
  const s = status(ex);
  return s !== undefined && !ok(s);
};

const rejected = <const N extends string>(name: N, what: string, appliesTo: AppliesTo) =>
  defineCheck({
    name,
    provenance: 'documented',
    assumptions: [],
    rule: 'Every API request is authenticated with a workspace API key (Authorization: Bearer).',
    kind: 'scenario',
    appliesTo,
    run(ex) {
      const s = status(ex);
      return s !== undefined && !ok(s)
        ? undefined
        : { received: `${s ?? ex.error} for ${what}`, expected: 'rejected (4xx)' };
    },
  });

export const missingKeyRejected = rejected('auth.missing-key-rejected', 'a request without a key', {
  columns: 'every-operation',
  send: ['no-key'],
});
export const invalidKeyRejected = rejected(
  'auth.invalid-key-rejected',
  'a request with an unknown key',
  { columns: 'every-operation', send: ['unknown-key'] },
);
/**
 * An Authorization that carries no workspace key as a bearer token — another scheme (`Basic
 * user:pass`) or `Bearer` without a token — authenticates nothing: refused (documented). Not
 * judged, on purpose: `bearer <valid key>` in lower case (RFC 7235 makes the scheme
 * case-insensitive, the docs only show `Bearer`) and a valid key under another scheme (some
 * services take `Basic <key>:`) — accepting either still authenticates with a workspace key.
 */
export const malformedAuthorizationRejected = rejected(
  'auth.malformed-authorization-rejected',
  'a request whose Authorization is not a bearer token (Basic …, or Bearer without a token)',
  { columns: 'every-operation', send: ['malformed-authorization'] },
);

/** The Ticket fields the docs give (API representation; the webhook one adds url). */
const TICKET_FIELDS = ['status', 'priority', 'requester', 'sla', 'created_at', 'url'];

/** How deep and how many values of a refusal's body are searched: a target's body may nest without end. */
const SEARCH_DEPTH = 6;
const SEARCH_NODES = 2_000;

/**
 * Workspace data in a body: a ticket in the documented representation (an id, a subject and one
 * more of its fields), or the object the request named (`named`: workspace A's, as A's key reads
 * it) — its id beside another of its own values, so an id merely echoed back (the caller's own
 * input, an RFC 9457 `instance`) is not data. Searched at any depth: a list, an envelope, an
 * extension member of a problem.
 */
function dataIn(json: unknown, named?: Record<string, unknown>): string | undefined {
  const stack: Array<[unknown, number]> = [[json, 0]];
  for (let seen = 0; stack.length > 0 && seen < SEARCH_NODES; seen++) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object' || depth > SEARCH_DEPTH) continue;
    if (!Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (
        typeof o.id === 'string' &&
        typeof o.subject === 'string' &&
        TICKET_FIELDS.some((f) => f in o)
      )
        return `ticket ${show(o.id)} (subject ${show(o.subject, 60)})`;
      if (
        named &&
        o.id === named.id &&
        Object.entries(named).some(([k, x]) => k !== 'id' && x !== null && sameJson(o[k], x))
      )
        return `the object ${show(o.id)} the request named, as its workspace reads it`;
    }
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return undefined;
}

/**
 * A request refused for its key — none, an unknown one, an Authorization that is no bearer token —
 * is served nothing of any workspace's: "Every API request is authenticated" and "a key can read
 * customer data" leave no data to a request without one, whatever the refusal's status (U17, U18)
 * or body shape (U16). Judged on the refusal only: an accepted request is the rejection rules'.
 * What counts as data is documented (the Ticket representation) or the request's own object as
 * its workspace's key read it: no assumption.
 */
export const refusalCarriesNoData = defineCheck({
  name: 'auth.refusal-carries-no-data',
  provenance: 'documented',
  assumptions: [],
  rule: "Every API request is authenticated with a workspace API key: a request refused for its key is served none of a workspace's data.",
  kind: 'scenario',
  appliesTo: {
    columns: 'every-operation',
    send: ['no-key', 'unknown-key', 'malformed-authorization'],
  },
  judges: refused,
  run(ex, a: Pick<MatrixArgs, 'operation' | 'ticket'>) {
    const found = dataIn(ex.response?.json, a?.ticket);
    if (!found) return undefined;
    return {
      received: `${a?.operation ?? ex.request.method}: ${status(ex)} refusing the key, whose body carries ${found}`,
      expected: "a refusal that carries none of a workspace's data",
    };
  },
});

const is401 = <const N extends string>(name: N, gap: string, appliesTo: AppliesTo) =>
  defineCheck({
    name,
    provenance: 'assumed',
    rule: `${gap}: answered 401 with a problem body.`,
    kind: 'scenario',
    appliesTo,
    judges: refused,
    run(ex) {
      const s = status(ex);
      return s === 401 ? undefined : { received: `${s ?? ex.error}`, expected: '401' };
    },
  });

export const missingKey401 = is401('auth.missing-key-401', 'U17 missing key', {
  columns: 'every-operation',
  send: ['no-key'],
});
export const invalidKey401 = is401('auth.invalid-key-401', 'U18 invalid key', {
  columns: 'every-operation',
  send: ['unknown-key'],
});

export const wwwAuthenticate = defineCheck({
  name: 'auth.www-authenticate',
  provenance: 'assumed',
  rule: 'U17: a 401 carries WWW-Authenticate: Bearer (RFC 6750).',
  kind: 'scenario',
  appliesTo: { columns: 'every-operation', send: ['no-key', 'unknown-key'] },
  // What a 401 carries: another status is the 401 checks' verdict (or, accepted, the rejection's).
  judges: (ex) => status(ex) === 401,
  run(ex) {
    const h = ex.response?.headers['www-authenticate'];
    return h && /^Bearer\b/i.test(h)
      ? undefined
      : {
          received: `WWW-Authenticate ${show(h ?? '(absent)')}`,
          expected: 'WWW-Authenticate: Bearer …',
        };
  },
});

export const readOnlyForbidden = defineCheck({
  name: 'auth.readonly-forbidden',
  provenance: 'documented',
  assumptions: [],
  rule: 'A key is scoped either to read-only or to full access: a read-only key cannot write.',
  kind: 'scenario',
  appliesTo: { columns: 'writes', send: ['read-only-key'] },
  run(ex, a: { operation: string }) {
    const s = status(ex);
    return s !== undefined && !ok(s)
      ? undefined
      : {
          received: `${s ?? ex.error} for ${a.operation} with a read-only key`,
          expected: 'rejected (4xx)',
        };
  },
});

export const readOnly403 = defineCheck({
  name: 'auth.readonly-403',
  provenance: 'assumed',
  rule: 'U19: a write with a read-only key is 403 with code insufficient_scope.',
  kind: 'scenario',
  appliesTo: { columns: 'writes', send: ['read-only-key'] },
  judges: refused,
  run(ex, a: { operation: string }) {
    const s = status(ex);
    const code = (ex.response?.json as any)?.code;
    return s === 403 && code === 'insufficient_scope'
      ? undefined
      : {
          received: `${s ?? ex.error} code ${show(code)} for ${a.operation}`,
          expected: '403, code "insufficient_scope"',
        };
  },
});

export const readOnlyCanRead = defineCheck({
  name: 'auth.readonly-can-read',
  provenance: 'documented',
  assumptions: [],
  rule: 'A read-only key can read.',
  kind: 'scenario',
  appliesTo: { columns: 'reads', send: ['read-only-key'] },
  run(ex, a: { operation: string }) {
    const s = status(ex);
    return ok(s) ? undefined : { received: `${s ?? ex.error} for ${a.operation}`, expected: '2xx' };
  },
});

export const rotatedKeyRejected = defineCheck({
  name: 'auth.rotated-key-rejected',
  provenance: 'documented',
  assumptions: [],
  rule: 'Keys can be rotated at any time: after rotation the old key no longer works.',
  kind: 'scenario',
  run(ex) {
    const s = status(ex);
    return s !== undefined && !ok(s)
      ? undefined
      : {
          received: `${s ?? ex.error} with the old key after rotation`,
          expected: 'rejected (401)',
        };
  },
});

/** Whether a rejection carries the foreign ticket's data (the id is the caller's own input). */
function leaks(ex: Exchange, ticket?: { subject?: unknown }): string | undefined {
  const text = ex.response?.bodyText ?? '';
  if (typeof ticket?.subject === 'string' && ticket.subject && text.includes(ticket.subject))
    return 'its subject';
  return undefined;
}

/** args: the foreign ticket as its own workspace created it (to spot its data in the answer). */
export const otherWorkspaceGet = defineCheck({
  name: 'isolation.get-other-workspace',
  provenance: 'documented',
  assumptions: [],
  // Documented: the data is isolated. That the answer equals the unknown-ticket one is U21
  // (isolation.same-as-unknown), an assumption: a 403 keeps the data isolated too.
  rule: "Data is isolated per workspace: another workspace's ticket is not served to it.",
  kind: 'scenario',
  appliesTo: { columns: 'by-id-reads', send: ['other-workspace'] },
  run(ex, a: Pick<MatrixArgs, 'ticket'>) {
    const s = status(ex);
    const leak = leaks(ex, a?.ticket);
    if (s !== undefined && !ok(s) && !leak) return undefined;
    return {
      received: `foreign ticket → ${s ?? ex.error}${ok(s) ? ' (the foreign ticket was served)' : leak ? ` (the answer carries ${leak})` : ''}`,
      expected: "a rejection that carries none of the other workspace's data",
    };
  },
});

/** args: the same request on a truly unknown id, and what was attempted. */
export const sameAsUnknown = defineCheck({
  name: 'isolation.same-as-unknown',
  provenance: 'assumed',
  rule: "U21: another workspace's ticket is answered exactly as an unknown one (404, same problem body).",
  kind: 'scenario',
  appliesTo: { columns: 'by-id', send: ['other-workspace'] },
  // Served as unknown refines refused at all: a foreign request that was served is
  // isolation.get-other-workspace's or isolation.write-other-workspace's verdict.
  judges: refused,
  run(ex, a: { unknown: Exchange; operation: string }) {
    const s = status(ex);
    const u = status(a.unknown);
    if (s === u && sameJson(problemShape(ex), problemShape(a.unknown))) return undefined;
    return {
      received: `${a.operation}: foreign ticket → ${s ?? ex.error}, unknown ticket → ${u ?? a.unknown.error}${s === u ? ' (different bodies)' : ''}`,
      expected: 'the same status and problem body for both (404)',
    };
  },
});

export const otherWorkspaceList = defineCheck({
  name: 'isolation.list',
  provenance: 'documented',
  assumptions: [],
  rule: 'Data is isolated per workspace: lists, filters and pages never contain another workspace’s tickets.',
  kind: 'scenario',
  appliesTo: { columns: 'lists', send: ['other-workspace'] },
  run(_ex, a: { foreignIds: string[]; seen: string[]; operation?: string }) {
    const foreign = new Set(a.foreignIds);
    const leaked = a.seen.filter((id) => foreign.has(id));
    // The matrix judges every list (rules, macros …), not only the tickets': it names the list.
    const what = a.operation
      ? `object(s) of workspace A on ${a.operation}`
      : 'ticket(s) of workspace A';
    return leaked.length === 0
      ? undefined
      : {
          received: `${leaked.length} ${what} listed to workspace B`,
          expected: 'none',
        };
  },
});

/** The value at `path` of a JSON body, if every step is an object's property. */
function valueAt(json: unknown, path: readonly string[]): unknown {
  let v = json;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

type CountArgs = Pick<MatrixArgs, 'operation' | 'count'>;
const counted = (ex: Exchange, a: CountArgs) =>
  a?.count ? valueAt(ex.response?.json, a.count.path) : undefined;

/**
 * ex: workspace B's answer to a count of a list (the summary report's `tickets.total`); args:
 * where the count is (the spec's schema) and how many objects B's own list showed, walked to its
 * end AFTER that answer. A count is an aggregate that moves while the run's other tests create
 * objects, but v1 deletes no ticket: B's list only grows, so B's own count when the report was
 * made is at most what the list shows afterwards — a larger count holds objects that are not
 * B's, whatever is created meanwhile. Reports themselves are assumed (U10); whose tickets they
 * count is the documented isolation (Auth 5). The sums by status and priority are
 * resources.report-consistent's (assumed): one judge per rule.
 */
export const otherWorkspaceCount = defineCheck({
  name: 'isolation.count',
  provenance: 'documented',
  assumptions: [],
  rule: "Data is isolated per workspace: a report counts only the workspace's own tickets, never another workspace's.",
  kind: 'scenario',
  appliesTo: { columns: 'counts', send: ['other-workspace'] },
  // A refused report counts nothing, and a total that is no number is the schema's verdict.
  judges: (ex, a: CountArgs) => ok(status(ex)) && typeof counted(ex, a) === 'number',
  run(ex, a: CountArgs) {
    const total = counted(ex, a);
    if (typeof total !== 'number' || !a.count || total <= a.count.listed) return undefined;
    const { path, collection, listed } = a.count;
    const what = collection.split('/').pop();
    return {
      received: `${a.operation}: the report of workspace B counts ${total} ${what} (${path.join('.')})`,
      expected: `only B's own: its list (GET ${collection}) shows ${listed} after the report`,
    };
  },
});

export const rotatedNewKeyWorks = defineCheck({
  name: 'auth.rotation-new-key-works',
  provenance: 'assumed',
  rule: 'Keys can be rotated at any time: the key issued by the rotation works at once.',
  kind: 'scenario',
  run(ex) {
    const s = status(ex);
    return ok(s)
      ? undefined
      : { received: `${s ?? ex.error} with the new key after rotation`, expected: '2xx' };
  },
});

/** What may differ between two answers to the same mistake: the request's id, and the text naming it. */
const PER_REQUEST = new Set(['request_id', 'detail', 'message']);

/**
 * Error bodies compared without their per-request fields, wherever the body's shape (U16) nests
 * them — a problem's top level, or an `{error: {…}}` object; an answer that is no JSON object as is.
 */
function problemShape(e: Exchange): unknown {
  // Two levels deep at most: a target's answer may nest without end.
  const strip = (v: unknown, depth: number): unknown =>
    depth > 1 || v === null || typeof v !== 'object' || Array.isArray(v)
      ? v
      : Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([k]) => !PER_REQUEST.has(k))
            .map(([k, x]) => [k, strip(x, depth + 1)]),
        );
  return strip(e.response?.json ?? {}, 0);
}

/** args: what was attempted, and whose objects its body named (the matrix's `body`). */
export const otherWorkspaceWrite = defineCheck({
  name: 'isolation.write-other-workspace',
  provenance: 'documented',
  assumptions: [],
  rule: "Data is isolated per workspace: a write to another workspace's ticket is not accepted.",
  kind: 'scenario',
  appliesTo: { columns: 'by-id-writes', send: ['other-workspace'] },
  run(ex, a: { operation: string; body?: string }) {
    const s = status(ex);
    if (s !== undefined && !ok(s)) return undefined;
    return {
      received: `${a.operation}${a.body ? ` (${a.body})` : ''}: foreign ticket → ${s ?? ex.error}${ok(s) ? ' (the write was accepted)' : ''}`,
      expected: 'a rejection (4xx; assumed the same 404 as for an unknown ticket)',
    };
  },
});

/** One of workspace B's writes to workspace A's ticket: what it tried to set, and whether it was refused. */
export interface ForeignWrite {
  operation: string;
  /** Fields of the ticket the write would set, with B's values. */
  sets: Record<string, unknown>;
  /** Answered with a rejection (not 2xx): an accepted write is isolation.write-other-workspace's. */
  refused: boolean;
}

/**
 * ex: workspace A's GET of its ticket after workspace B's writes; args: those writes, and A's GET
 * at the same moment of an untouched twin — a ticket created the same way, which B never wrote.
 *
 * A ticket changes without anybody writing it: the deployment moves its status itself (a new
 * ticket that becomes open, an SLA sweep, an auto-close), stamps updated_at, runs its rules. So a
 * before/after difference proves nothing by itself (it read `new → open` as a break on a
 * deployment that answers creation with status new). What only B's writes can have done: a field
 * B tried to set that now holds B's value — B's subject carries a marker nobody else sends — while
 * the twin's same field does not (what happened to both is the deployment's own doing). And only
 * refused writes count here: an accepted one already fails isolation.write-other-workspace.
 */
export const foreignUnchanged = defineCheck({
  name: 'isolation.foreign-unchanged',
  provenance: 'documented',
  assumptions: [],
  rule: 'Data is isolated per workspace: another workspace cannot change a ticket.',
  kind: 'scenario',
  run(ex, a: { writes: ForeignWrite[]; twin: Record<string, unknown> }) {
    const t = (ex.response?.json ?? {}) as Record<string, unknown>;
    // The twin is the target's answer: anything (null, a string) reads as holding nothing of B's.
    const twin = (a.twin ?? {}) as Record<string, unknown>;
    const applied = a.writes
      .filter((w) => w.refused)
      .flatMap((w) =>
        Object.entries(w.sets)
          .filter(([k, v]) => sameJson(t[k], v) && !sameJson(twin[k], v))
          .map(([k, v]) => `${k} ${show(v)} (${w.operation}, refused, applied anyway)`),
      );
    return applied.length === 0
      ? undefined
      : {
          received: `after workspace B's refused writes the ticket shows what B sent: ${applied.join(', ')}`,
          expected: "the ticket untouched by another workspace's writes",
        };
  },
});

/**
 * ex: workspace B's creation of a ticket carrying the condition tag of a rule workspace A created;
 * args: the tag A's rule adds. Rules themselves are assumed (U10), but once they exist whose
 * tickets they act on is the documented isolation. The added tag is random and only A's rule adds
 * it, so B's ticket carrying it is A's rule at work, whatever the deployment does with B's own
 * rules (or with the creation's other fields): judged on the creation's answer, as
 * resources.rule-applied judges A's matching ticket.
 */
export const rulesOwnWorkspace = defineCheck({
  name: 'isolation.rules-own-workspace',
  provenance: 'documented',
  assumptions: [],
  rule: "Data is isolated per workspace: a rule created in one workspace never acts on another workspace's tickets.",
  kind: 'scenario',
  run(ex, a: { tag: string }) {
    const tags = body(ex).tags;
    if (!Array.isArray(tags) || !tags.includes(a?.tag)) return undefined;
    return {
      received: `workspace B's new ticket carries ${show(a.tag)}, the tag workspace A's rule adds (tags ${show(tags)})`,
      expected: "a ticket no rule of another workspace acted on: without A's rule's tag",
    };
  },
});

export const AUTH_CHECKS = [
  missingKeyRejected,
  invalidKeyRejected,
  malformedAuthorizationRejected,
  refusalCarriesNoData,
  missingKey401,
  invalidKey401,
  wwwAuthenticate,
  readOnlyForbidden,
  readOnly403,
  readOnlyCanRead,
  rotatedKeyRejected,
  otherWorkspaceGet,
  sameAsUnknown,
  otherWorkspaceList,
  otherWorkspaceCount,
  rotatedNewKeyWorks,
  otherWorkspaceWrite,
  foreignUnchanged,
  rulesOwnWorkspace,
];
