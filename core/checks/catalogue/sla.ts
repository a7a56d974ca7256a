/** Checks of a ticket's SLA clock: sla.first_response_due, by priority and after a priority change. */
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';
import { body } from './answer.ts';

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

const hours = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 3.6e6).toFixed(2)} h`);

/**
 * Time from creation to first response due, per priority (NaN when a ticket lacks a field), and
 * as the two priority checks report it.
 */
function dueSpans(a: ByPriority) {
  const span = (e: Exchange) => {
    const t = body(e);
    return Date.parse(t.sla?.first_response_due) - Date.parse(t.created_at);
  };
  const [h, n, l] = [span(a.high), span(a.normal), span(a.low)];
  return { h, n, l, received: `due after high ${hours(h)}, normal ${hours(n)}, low ${hours(l)}` };
}

/** args: the creation exchanges of three tickets with priorities high, normal, low. */
export const slaByPriority = defineCheck({
  name: 'ticket.sla-by-priority',
  provenance: 'documented',
  // The docs say only that priority affects the clock: which way is ticket.sla-priority-order.
  rule: 'Priority affects the SLA clock: the three priorities do not all get the same first response due time.',
  kind: 'scenario',
  run(_ex, a: ByPriority) {
    const { h, n, l, received } = dueSpans(a);
    if (![h, n, l].some(Number.isNaN) && !(h === n && n === l)) return undefined;
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
    const { h, n, l, received } = dueSpans(a);
    if (h < n && n < l) return undefined;
    return { received, expected: 'high < normal < low (assumed targets 1 h, 4 h, 24 h)' };
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

export const SLA_CHECKS = [slaPresent, slaByPriority, slaPriorityOrder, slaRecomputed];
