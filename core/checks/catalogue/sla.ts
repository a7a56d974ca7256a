/** Checks of a ticket's SLA clock: sla.first_response_due, by priority and after a priority change. */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';
import { body, judgedOnTicket } from './answer.ts';

/** ex: an answer showing the ticket — its creation, or an update (U6: a ticket only by our reading). */
export const slaPresent = defineCheck({
  name: 'ticket.sla-present',
  provenance: 'documented',
  assumptions: ['U6'],
  rule: 'A ticket contains sla.first_response_due.',
  kind: 'scenario',
  run(ex) {
    const sla = body(ex).sla;
    return typeof sla?.first_response_due === 'string'
      ? undefined
      : judgedOnTicket(ex, {
          received: `sla ${show(sla)}`,
          expected: 'sla.first_response_due, a timestamp',
        });
  },
});

type ByPriority = { high: Exchange; normal: Exchange; low: Exchange };

const hours = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 3.6e6).toFixed(2)} h`);

/** Time from creation to first response due of a ticket as answered (NaN when a field lacks). */
const span = (e: Exchange) => {
  const t = body(e);
  return Date.parse(t.sla?.first_response_due) - Date.parse(t.created_at);
};

/**
 * Time from creation to first response due, per priority, as the two priority checks report
 * it — and whether they can judge at all: each ticket must carry a due time (absent is
 * ticket.sla-present's verdict) and the priority it was created with (else
 * ticket.priority-echoed's: a deployment that stored every ticket as normal gives them one due
 * time because they have one priority, not because priority does not affect the clock).
 */
function dueSpans(a: ByPriority) {
  const [h, n, l] = [span(a.high), span(a.normal), span(a.low)];
  const judgeable =
    ![h, n, l].some(Number.isNaN) &&
    (['high', 'normal', 'low'] as const).every((p) => body(a[p]).priority === p);
  return {
    h,
    n,
    l,
    judgeable,
    received: `due after high ${hours(h)}, normal ${hours(n)}, low ${hours(l)}`,
  };
}

/** args: the creation exchanges of three tickets with priorities high, normal, low. */
export const slaByPriority = defineCheck({
  name: 'ticket.sla-by-priority',
  provenance: 'documented',
  assumptions: [],
  // The docs say only that priority affects the clock: which way is ticket.sla-priority-order.
  rule: 'Priority affects the SLA clock: the three priorities do not all get the same first response due time.',
  kind: 'scenario',
  run(_ex, a: ByPriority) {
    const { h, n, l, judgeable, received } = dueSpans(a);
    if (!judgeable || !(h === n && n === l)) return undefined;
    return { received, expected: 'a due time that depends on the priority' };
  },
});

/** args: as ticket.sla-by-priority. */
export const slaPriorityOrder = defineCheck({
  name: 'ticket.sla-priority-order',
  provenance: 'assumed',
  rule: 'SLA (docs/assumptions.md): higher priority, earlier first response due (high 1 h < normal 4 h < low 24 h).',
  kind: 'scenario',
  run(_ex, a: ByPriority) {
    const { h, n, l, judgeable, received } = dueSpans(a);
    // One due time for all is ticket.sla-by-priority's verdict: the order is judged where the
    // priorities differ at all.
    if (!judgeable || (h === n && n === l) || (h < n && n < l)) return undefined;
    return { received, expected: 'high < normal < low (assumed targets 1 h, 4 h, 24 h)' };
  },
});

/**
 * ex: the ticket after a priority change; args: the creation of a ticket with the new priority.
 * Judged against the deployment's own target for that priority (the twin's), not the assumed
 * table: the targets and their order are ticket.sla-priority-order's, so a deployment with other
 * targets (or one for all) still shows whether a change recomputes. A ticket without a due time
 * is ticket.sla-present's verdict.
 */
export const slaRecomputed = defineCheck({
  name: 'ticket.sla-recomputed',
  provenance: 'assumed',
  rule: 'SLA (docs/assumptions.md): first_response_due = created_at + the target of the current priority; a priority change recomputes it.',
  kind: 'scenario',
  run(ex, a: { twin: Exchange }) {
    const got = span(ex);
    const want = span(a.twin);
    if (Number.isNaN(got) || Number.isNaN(want) || Math.abs(got - want) < 1000) return undefined;
    return {
      received: `priority ${show(body(ex).priority)}, due ${hours(got)} after creation`,
      expected: `due ${hours(want)} after creation, as a ticket created with priority ${show(body(a.twin).priority)}`,
    };
  },
});

export const SLA_CHECKS = [slaPresent, slaByPriority, slaPriorityOrder, slaRecomputed];
