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
      ([, v]) =>
        v !== undefined && !(typeof v === 'string' && UTC.test(v) && !Number.isNaN(Date.parse(v))),
    );
    if (bad.length === 0) return undefined;
    return {
      received: bad.map(([k, v]) => `${k} ${show(v)}`).join(', '),
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

/** args: the creation exchanges of three tickets with priorities high, normal, low. */
export const slaByPriority = defineCheck<{ high: Exchange; normal: Exchange; low: Exchange }>({
  name: 'ticket.sla-by-priority',
  provenance: 'documented',
  rule: 'Priority affects the SLA clock: higher priority, earlier first response due.',
  kind: 'scenario',
  run(_ex, a) {
    const span = (e: Exchange) => {
      const t = body(e);
      return Date.parse(t.sla?.first_response_due) - Date.parse(t.created_at);
    };
    const [h, n, l] = [span(a.high), span(a.normal), span(a.low)];
    if (h < n && n < l) return undefined;
    const hrs = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 3.6e6).toFixed(2)} h`);
    return {
      received: `due after high ${hrs(h)}, normal ${hrs(n)}, low ${hrs(l)}`,
      expected: 'high < normal < low (assumed targets 1 h, 4 h, 24 h)',
    };
  },
});

export const priorityEchoed = defineCheck<{ sent: string }>({
  name: 'ticket.priority-echoed',
  provenance: 'documented',
  rule: 'priority is one of low, normal, high, as supplied at creation.',
  kind: 'scenario',
  run(ex, a) {
    const p = body(ex).priority;
    return p === a.sent
      ? undefined
      : { received: `priority ${show(p)}`, expected: `priority ${show(a.sent)} as sent` };
  },
});

export const requesterEchoed = defineCheck<{ sent: { email: string; name?: string } }>({
  name: 'ticket.requester-echoed',
  provenance: 'documented',
  rule: 'requester is the customer and carries an email and a name.',
  kind: 'scenario',
  run(ex, a) {
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
export const paginationWalk = defineCheck<{ seen: string[]; mustContain: string[]; pages: number }>(
  {
    name: 'tickets.pagination-walk',
    provenance: 'assumed',
    rule: 'U4: following next_cursor visits every ticket exactly once.',
    kind: 'scenario',
    run(_ex, a) {
      const dupes = a.seen.filter((id, i) => a.seen.indexOf(id) !== i);
      const missing = a.mustContain.filter((id) => !a.seen.includes(id));
      if (dupes.length === 0 && missing.length === 0) return undefined;
      return {
        received: `${a.pages} pages, ${a.seen.length} items, ${dupes.length} duplicates, ${missing.length} of ${a.mustContain.length} created tickets missing`,
        expected: 'no duplicates and no gaps',
      };
    },
  },
);

export const closeCloses = defineCheck({
  name: 'tickets.close',
  provenance: 'documented',
  rule: 'Close exists and resolves or closes the ticket (ticket.closed).',
  kind: 'scenario',
  run(ex) {
    const r = ex.response;
    const s = body(ex).status;
    if (r && r.status >= 200 && r.status < 300 && s === 'closed') return undefined;
    return {
      received: `${r?.status ?? 'no response'} with status ${show(s)}`,
      expected: '2xx and status "closed"',
    };
  },
});

export const statusIs = defineCheck<{ expected: number[]; what: string }>({
  name: 'tickets.status-code',
  provenance: 'assumed',
  rule: 'U5–U9: each ticket operation answers with the status the spec gives it.',
  kind: 'scenario',
  run(ex, a) {
    const s = ex.response?.status;
    return s !== undefined && a.expected.includes(s)
      ? undefined
      : {
          received: `${s ?? ex.error ?? 'no response'} for ${a.what}`,
          expected: a.expected.join(' or '),
        };
  },
});

export const TICKET_CHECKS = [
  createdStatusOpen,
  timestampsUtc,
  slaPresent,
  slaByPriority,
  priorityEchoed,
  requesterEchoed,
  listEnvelope,
  paginationWalk,
  closeCloses,
  statusIs,
];
