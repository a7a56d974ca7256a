/**
 * SLA (documented: priority affects the clock; targets assumed): first response due
 * created_at + target; `sla.at_risk` once when 25 % of the target is left and no agent has
 * answered yet.
 */
import type { FaultSet } from './faults.ts';
import type { Priority, Ticket } from './store.ts';

const HOUR = 3_600_000;
export const SLA_TARGET_MS: Record<Priority, number> = {
  high: HOUR,
  normal: 4 * HOUR,
  low: 24 * HOUR,
};
export const AT_RISK_FRACTION = 0.25;

const REVERSED: Record<Priority, Priority> = { high: 'low', normal: 'normal', low: 'high' };

export function slaTarget(priority: Priority, faults: FaultSet): number {
  if (faults.has('sla-ignores-priority')) return SLA_TARGET_MS.normal;
  return SLA_TARGET_MS[faults.has('sla-reversed') ? REVERSED[priority] : priority];
}

export function atRiskAtMs(t: Ticket, faults: FaultSet): number {
  const target = slaTarget(t.priority, faults);
  return t.createdAtMs + target * (1 - AT_RISK_FRACTION);
}

/** Tickets that crossed their at-risk threshold at `nowMs` and have not been announced yet. */
export function dueForAtRisk(tickets: Iterable<Ticket>, nowMs: number, faults: FaultSet): Ticket[] {
  const out: Ticket[] = [];
  for (const t of tickets) {
    if (t.atRiskFired || t.status === 'closed' || t.firstResponseAtMs !== undefined) continue;
    if (nowMs >= atRiskAtMs(t, faults)) out.push(t);
  }
  return out;
}
