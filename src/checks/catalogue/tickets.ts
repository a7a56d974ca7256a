/** Checks of ticket representations and ticket operations. */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';

const body = (ex: Exchange) => (ex.response?.json ?? {}) as Record<string, any>;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const createdStatusOpen = defineCheck({
  name: 'ticket.created-status-open',
  provenance: 'documented',
  rule: 'A newly created ticket has status open in the response to creation.',
  kind: 'scenario',
  run(ex) {
    const s = body(ex).status;
    return s === 'open' ? undefined : { received: `status ${show(s)}`, expected: 'status "open"' };
  },
});

export const timestampsUtc = defineCheck({
  name: 'ticket.timestamps-utc',
  provenance: 'documented',
  rule: 'created_at and sla.first_response_due are ISO 8601 UTC timestamps.',
  kind: 'scenario',
  run(ex) {
    const t = body(ex);
    const bad = [
      ['created_at', t.created_at],
      ['sla.first_response_due', t.sla?.first_response_due],
    ].filter(
      // Absent counts as broken: both fields are in the documented Ticket representation, and
      // skipping them made the check pass on an empty or non-JSON body.
      ([, v]) => !(typeof v === 'string' && UTC.test(v) && !Number.isNaN(Date.parse(v))),
    );
    if (bad.length === 0) return undefined;
    return {
      received: bad.map(([k, v]) => `${k} ${v === undefined ? '(absent)' : show(v)}`).join(', '),
      expected: 'ISO 8601 UTC, e.g. 2026-11-22T09:00:00Z',
    };
  },
});

export const slaPresent = defineCheck({
  name: 'ticket.sla-present',
  provenance: 'documented',
  rule: 'A ticket contains sla.first_response_due.',
  kind: 'scenario',
  run(ex) {
    const sla = body(ex).sla;
    return typeof sla?.first_response_due === 'string'
      ? undefined
      : { received: `sla ${show(sla)}`, expected: 'sla.first_response_due, a timestamp' };
  },
});

type ByPriority = { high: Exchange; normal: Exchange; low: Exchange };

/** Time from creation to first response due, per priority (NaN when a ticket lacks a field). */
function dueSpans(a: ByPriority): [number, number, number] {
  const span = (e: Exchange) => {
    const t = body(e);
    return Date.parse(t.sla?.first_response_due) - Date.parse(t.created_at);
  };
  return [span(a.high), span(a.normal), span(a.low)];
}

const hours = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 3.6e6).toFixed(2)} h`);

/** args: the creation exchanges of three tickets with priorities high, normal, low. */
export const slaByPriority = defineCheck({
  name: 'ticket.sla-by-priority',
  provenance: 'documented',
  // The docs say only that priority affects the clock: which way is ticket.sla-priority-order.
  rule: 'Priority affects the SLA clock: the three priorities do not all get the same first response due time.',
  kind: 'scenario',
  run(_ex, a: ByPriority) {
    const [h, n, l] = dueSpans(a);
    if (![h, n, l].some(Number.isNaN) && !(h === n && n === l)) return undefined;
    return {
      received: `due after high ${hours(h)}, normal ${hours(n)}, low ${hours(l)}`,
      expected: 'a due time that depends on the priority',
    };
  },
});

/** args: as ticket.sla-by-priority. */
export const slaPriorityOrder = defineCheck({
  name: 'ticket.sla-priority-order',
  provenance: 'assumed',
  rule: 'SLA (docs/assumptions.md): higher priority, earlier first response due (high 1 h < normal 4 h < low 24 h).',
  kind: 'scenario',
  run(_ex, a: ByPriority) {
    const [h, n, l] = dueSpans(a);
    if (h < n && n < l) return undefined;
    return {
      received: `due after high ${hours(h)}, normal ${hours(n)}, low ${hours(l)}`,
      expected: 'high < normal < low (assumed targets 1 h, 4 h, 24 h)',
    };
  },
});

export const priorityEchoed = defineCheck({
  name: 'ticket.priority-echoed',
  provenance: 'documented',
  rule: 'priority is one of low, normal, high, as supplied at creation.',
  kind: 'scenario',
  run(ex, a: { sent: string }) {
    const p = body(ex).priority;
    return p === a.sent
      ? undefined
      : { received: `priority ${show(p)}`, expected: `priority ${show(a.sent)} as sent` };
  },
});

export const requesterEchoed = defineCheck({
  name: 'ticket.requester-echoed',
  provenance: 'documented',
  rule: 'requester is the customer and carries an email and a name.',
  kind: 'scenario',
  run(ex, a: { sent: { email: string; name?: string } }) {
    const r = body(ex).requester ?? {};
    if (r.email === a.sent.email && (a.sent.name === undefined || r.name === a.sent.name))
      return undefined;
    return { received: `requester ${show(r)}`, expected: `requester ${show(a.sent)} as sent` };
  },
});

export const listEnvelope = defineCheck({
  name: 'tickets.list-envelope',
  provenance: 'assumed',
  rule: 'U4: a list is {data, has_more, next_cursor}.',
  kind: 'scenario',
  run(ex) {
    const j = ex.response?.json as any;
    if (
      j &&
      !Array.isArray(j) &&
      Array.isArray(j.data) &&
      typeof j.has_more === 'boolean' &&
      'next_cursor' in j
    ) {
      return undefined;
    }
    return {
      received: `body ${show(j, 120)}`,
      expected: '{ data: [...], has_more: boolean, next_cursor: string|null }',
    };
  },
});

/** args: ids in walk order, and the ids known to exist in the workspace (a subset must all be seen). */
export const paginationWalk = defineCheck({
  name: 'tickets.pagination-walk',
  provenance: 'assumed',
  rule: 'U4: following next_cursor visits every ticket exactly once.',
  kind: 'scenario',
  run(_ex, a: { seen: string[]; mustContain: string[]; pages: number }) {
    const dupes = a.seen.filter((id, i) => a.seen.indexOf(id) !== i);
    const missing = a.mustContain.filter((id) => !a.seen.includes(id));
    if (dupes.length === 0 && missing.length === 0) return undefined;
    return {
      received: `${a.pages} pages, ${a.seen.length} items, ${dupes.length} duplicates, ${missing.length} of ${a.mustContain.length} created tickets missing`,
      expected: 'no duplicates and no gaps',
    };
  },
});

export const closeCloses = defineCheck({
  name: 'tickets.close',
  provenance: 'documented',
  // "closed" as the status value is U1 (only open is documented): tickets.status-transition and
  // tickets.idempotent-close hold the assumed value; the documented rule is only "no longer open".
  rule: 'Close exists and resolves or closes the ticket (ticket.closed): it is no longer open.',
  kind: 'scenario',
  run(ex) {
    const r = ex.response;
    const s = body(ex).status;
    if (r && r.status >= 200 && r.status < 300 && typeof s === 'string' && s !== 'open')
      return undefined;
    return {
      received: `${r?.status ?? 'no response'} with status ${show(s)}`,
      expected: '2xx and a status other than "open" (assumed "closed")',
    };
  },
});

/** An assumed status-code check: the answer's status is one of `expected`. */
const statusIn = <const N extends string>(name: N, rule: string) =>
  defineCheck({
    name,
    provenance: 'assumed',
    rule,
    kind: 'scenario',
    run(ex, a: { expected: number[]; what: string }) {
      const s = ex.response?.status;
      return s !== undefined && a.expected.includes(s)
        ? undefined
        : {
            received: `${s ?? ex.error ?? 'no response'} for ${a.what}`,
            expected: a.expected.join(' or '),
          };
    },
  });

export const statusIs = statusIn(
  'tickets.status-code',
  'U5–U9: each ticket operation answers with the status the spec gives it.',
);

/** args: the filter sent; every listed ticket must match it. */
export const filterApplied = defineCheck({
  name: 'tickets.filter-applied',
  provenance: 'assumed',
  rule: 'U4: the status and priority query parameters filter the list.',
  kind: 'scenario',
  run(ex, a: { filter: { status?: string; priority?: string } }) {
    const data = (ex.response?.json as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data))
      return { received: `body ${show(ex.response?.json, 80)}`, expected: 'a list envelope' };
    const off = data.filter((t: Record<string, unknown>) =>
      Object.entries(a.filter).some(([k, v]) => v !== undefined && t[k] !== v),
    );
    if (off.length === 0) return undefined;
    return {
      received: `${off.length} of ${data.length} listed tickets do not match ${show(a.filter)} (e.g. ${show(off[0], 120)})`,
      expected: `only tickets matching ${show(a.filter)}`,
    };
  },
});

/** args: the filter sent; the ticket that matches it must be listed. */
export const filterIncludes = defineCheck({
  name: 'tickets.filter-includes',
  provenance: 'assumed',
  rule: 'U4: a filtered list contains the tickets that match the filter.',
  kind: 'scenario',
  run(ex, a: { id: string; filter: Record<string, string> }) {
    const data = (ex.response?.json as { data?: Array<{ id?: string }> } | undefined)?.data;
    if (Array.isArray(data) && data.some((t) => t?.id === a.id)) return undefined;
    return {
      received: `ticket ${a.id} absent from the first page filtered by ${show(a.filter)}`,
      expected: 'the matching ticket listed (newest first)',
    };
  },
});

/** args: the ticket as created; ex is a GET of it. */
export const getMatches = defineCheck({
  name: 'tickets.get-matches',
  provenance: 'assumed',
  rule: 'U8: GET /v1/tickets/{id} returns the ticket as created.',
  kind: 'scenario',
  run(ex, a: { created: Record<string, unknown> }) {
    const t = body(ex);
    const keys = ['id', 'subject', 'priority', 'status', 'created_at'] as const;
    const diff = keys.filter((k) => JSON.stringify(t[k]) !== JSON.stringify(a.created[k]));
    if (ex.response?.status === 200 && diff.length === 0) return undefined;
    return {
      received: `${ex.response?.status ?? ex.error}${diff.length ? `, differs in ${diff.map((k) => `${k} ${show(t[k])}`).join(', ')}` : ''}`,
      expected: '200 with the created ticket',
    };
  },
});

/** args: the ticket before the patch and the patch; ex is the PATCH answer. */
export const mergePatch = defineCheck({
  name: 'tickets.merge-patch',
  provenance: 'assumed',
  rule: 'U6: PATCH is a JSON merge patch: the fields sent change, the others stay.',
  kind: 'scenario',
  run(
    ex,
    a: {
      before: Record<string, unknown>;
      patch: Record<string, unknown>;
    },
  ) {
    const t = body(ex);
    const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
    const notApplied = Object.entries(a.patch)
      .filter(
        ([k, v]) =>
          !same(
            k === 'tags' ? [...((t[k] as string[]) ?? [])].sort() : t[k],
            k === 'tags' ? [...(v as string[])].sort() : v,
          ),
      )
      .map(([k]) => k);
    const untouched = ['id', 'subject', 'priority', 'status', 'requester', 'created_at'].filter(
      (k) => !(k in a.patch),
    );
    const changed = untouched.filter((k) => !same(t[k], a.before[k]));
    if (ex.response?.status === 200 && notApplied.length === 0 && changed.length === 0)
      return undefined;
    return {
      received: `${ex.response?.status ?? ex.error}; not applied: ${notApplied.join(', ') || 'none'}; changed without being sent: ${changed.join(', ') || 'none'}`,
      expected: '200, the patched fields changed and nothing else',
    };
  },
});

const SLA_TARGET_H: Record<string, number> = { high: 1, normal: 4, low: 24 };

/** ex: the ticket after a priority change. */
export const slaRecomputed = defineCheck({
  name: 'ticket.sla-recomputed',
  provenance: 'assumed',
  rule: 'SLA (docs/assumptions.md): first_response_due = created_at + target of the current priority (high 1 h, normal 4 h, low 24 h); a priority change recomputes it.',
  kind: 'scenario',
  run(ex) {
    const t = body(ex);
    const want = SLA_TARGET_H[t.priority as string];
    const got =
      (Date.parse(t.sla?.first_response_due) - Date.parse(t.created_at as string)) / 3.6e6;
    if (want !== undefined && Math.abs(got - want) < 1 / 3600) return undefined;
    return {
      received: `priority ${show(t.priority)}, due ${Number.isNaN(got) ? 'n/a' : `${got.toFixed(3)} h`} after creation`,
      expected: `due ${want ?? '?'} h after creation`,
    };
  },
});

export const idempotentClose = defineCheck({
  name: 'tickets.idempotent-close',
  provenance: 'assumed',
  rule: 'U7: closing a closed ticket answers 200 with the ticket, still closed.',
  kind: 'scenario',
  run(ex) {
    const s = ex.response?.status;
    const st = body(ex).status;
    return s === 200 && st === 'closed'
      ? undefined
      : {
          received: `${s ?? ex.error} with status ${show(st)}`,
          expected: '200 and status "closed"',
        };
  },
});

/** args: the message sent. */
export const messageStored = defineCheck({
  name: 'tickets.message-stored',
  provenance: 'assumed',
  rule: 'U9: POST /v1/tickets/{id}/messages → 201 with the stored message (body, author, internal).',
  kind: 'scenario',
  run(
    ex,
    a: {
      sent: { body: string; author: string; internal?: boolean };
      ticketId: string;
    },
  ) {
    const m = body(ex);
    const ok =
      ex.response?.status === 201 &&
      m.body === a.sent.body &&
      m.author === a.sent.author &&
      m.internal === (a.sent.internal ?? false) &&
      m.ticket_id === a.ticketId;
    return ok
      ? undefined
      : {
          received: `${ex.response?.status ?? ex.error} ${show(m, 160)}`,
          expected: `201 with author ${a.sent.author}, internal ${a.sent.internal ?? false}, the body sent, ticket_id ${a.ticketId}`,
        };
  },
});

/** args: the status the ticket should have after a transition; ex: a GET of the ticket. */
export const statusAfter = defineCheck({
  name: 'tickets.status-transition',
  provenance: 'assumed',
  rule: 'U1: statuses open, pending, on_hold, closed; a customer reply re-opens a pending ticket.',
  kind: 'scenario',
  run(ex, a: { expected: string; what: string }) {
    const st = body(ex).status;
    return st === a.expected
      ? undefined
      : { received: `status ${show(st)} after ${a.what}`, expected: `status ${show(a.expected)}` };
  },
});

// --- contacts, macros, rules, reports (U10) -----------------------------------------------------

export const resourceStatus = statusIn(
  'resources.status-code',
  'U10: contacts, macros, rules and reports answer with the statuses the spec gives them.',
);

export const contactEchoed = defineCheck({
  name: 'resources.contact-echoed',
  provenance: 'assumed',
  rule: 'U10: a contact is stored and returned with the email and name sent.',
  kind: 'scenario',
  run(ex, a: { sent: { email?: string; name?: string } }) {
    const c = body(ex);
    const off = Object.entries(a.sent).filter(([k, v]) => c[k] !== v);
    return off.length === 0
      ? undefined
      : { received: `contact ${show(c, 160)}`, expected: `contact with ${show(a.sent)}` };
  },
});

/** args: the macro's actions; ex: the apply answer (the ticket after the macro). */
export const macroApplied = defineCheck({
  name: 'resources.macro-applied',
  provenance: 'assumed',
  rule: 'U10: applying a macro performs its actions on the ticket and returns the ticket.',
  kind: 'scenario',
  run(
    ex,
    a: {
      actions: { status?: string; priority?: string; tags_add?: string[] };
    },
  ) {
    const t = body(ex);
    const off: string[] = [];
    if (ex.response?.status !== 200) off.push(`status code ${ex.response?.status ?? ex.error}`);
    if (a.actions.status && t.status !== a.actions.status) off.push(`status ${show(t.status)}`);
    if (a.actions.priority && t.priority !== a.actions.priority)
      off.push(`priority ${show(t.priority)}`);
    for (const tag of a.actions.tags_add ?? [])
      if (!(Array.isArray(t.tags) && t.tags.includes(tag))) off.push(`tag ${show(tag)} missing`);
    return off.length === 0
      ? undefined
      : {
          received: off.join(', '),
          expected: `200 with the macro's actions ${show(a.actions)} applied`,
        };
  },
});

/** args: the tag the rule adds; ex: the creation of a ticket matching the rule's condition. */
export const ruleApplied = defineCheck({
  name: 'resources.rule-applied',
  provenance: 'assumed',
  rule: 'U10: an enabled rule acts on the tickets matching its event and conditions.',
  kind: 'scenario',
  run(ex, a: { tag: string }) {
    const tags = body(ex).tags;
    return Array.isArray(tags) && tags.includes(a.tag)
      ? undefined
      : { received: `tags ${show(tags)}`, expected: `the rule's tag ${show(a.tag)} added` };
  },
});

/** args: how many tickets this test created before asking (a lower bound of the total). */
export const reportConsistent = defineCheck({
  name: 'resources.report-consistent',
  provenance: 'assumed',
  rule: 'U10: the summary report counts every ticket once by status and once by priority.',
  kind: 'scenario',
  run(ex, a: { atLeast: number }) {
    const r = body(ex);
    const total = r.tickets?.total;
    const sum = (o: unknown) =>
      Object.values((o ?? {}) as Record<string, number>).reduce((x, y) => x + y, 0);
    const byStatus = sum(r.tickets?.by_status);
    const byPriority = sum(r.tickets?.by_priority);
    if (
      typeof total === 'number' &&
      total >= a.atLeast &&
      byStatus === total &&
      byPriority === total
    )
      return undefined;
    return {
      received: `total ${show(total)}, Σ by_status ${byStatus}, Σ by_priority ${byPriority}`,
      expected: `total ≥ ${a.atLeast}, equal to both sums`,
    };
  },
});

/** args: the id that must appear in the listed page; ex: the list answer. */
export const resourceListed = defineCheck({
  name: 'resources.listed',
  provenance: 'assumed',
  rule: 'U10: a created contact or rule appears in its list.',
  kind: 'scenario',
  run(ex, a: { id: string; what: string }) {
    const data = (ex.response?.json as { data?: Array<{ id?: string }> } | undefined)?.data;
    return Array.isArray(data) && data.some((x) => x?.id === a.id)
      ? undefined
      : { received: `${a.what} ${a.id} not listed`, expected: 'listed (first page, newest first)' };
  },
});

/** args: the tag the rule adds; ex: the creation of a ticket NOT matching the rule's condition. */
export const ruleConditions = defineCheck({
  name: 'resources.rule-conditions',
  provenance: 'assumed',
  rule: 'U10: a rule leaves tickets that do not match its conditions alone.',
  kind: 'scenario',
  run(ex, a: { tag: string }) {
    const tags = body(ex).tags;
    return Array.isArray(tags) && !tags.includes(a.tag)
      ? undefined
      : {
          received: `tags ${show(tags)}`,
          expected: `no ${show(a.tag)}: the ticket does not match the rule`,
        };
  },
});

export const TICKET_CHECKS = [
  createdStatusOpen,
  timestampsUtc,
  slaPresent,
  slaByPriority,
  slaPriorityOrder,
  priorityEchoed,
  requesterEchoed,
  listEnvelope,
  paginationWalk,
  closeCloses,
  statusIs,
  filterApplied,
  filterIncludes,
  getMatches,
  mergePatch,
  slaRecomputed,
  idempotentClose,
  messageStored,
  statusAfter,
  resourceStatus,
  contactEchoed,
  macroApplied,
  ruleApplied,
  reportConsistent,
  resourceListed,
  ruleConditions,
];
