/**
 * SLA (documented: priority affects the clock; targets assumed, or a reading's): first response
 * due created_at + target; `sla.at_risk` once when a share of the ticket's own target is left
 * (25 % assumed) and no agent has answered yet.
 */
import type { ServiceContext } from './context.ts';
import { TICKET_DEFAULTS } from './readings/tickets.ts';
import { isDone, type Priority, type Ticket } from './store.ts';

const HOUR = 3_600_000;

/** Our assumed targets: what seeded tickets were given (old tickets keep their due times). */
export const SLA_TARGET_MS: Record<Priority, number> = {
  high: TICKET_DEFAULTS.slaTargetHours.high * HOUR,
  normal: TICKET_DEFAULTS.slaTargetHours.normal * HOUR,
  low: TICKET_DEFAULTS.slaTargetHours.low * HOUR,
};

const REVERSED: Record<Priority, Priority> = { high: 'low', normal: 'normal', low: 'high' };

export function slaTarget(
  priority: Priority,
  ctx: Pick<ServiceContext, 'faults' | 'behaviour'>,
): number {
  const hours = ctx.behaviour.slaTargetHours;
  if (ctx.faults.has('sla-ignores-priority')) return hours.normal * HOUR;
  return hours[ctx.faults.has('sla-reversed') ? REVERSED[priority] : priority] * HOUR;
}

/** When `t` is at risk: `atRiskLeft` of its own target (created → due) before its due time. */
export function atRiskAtMs(t: Ticket, atRiskLeft: number): number {
  return t.firstResponseDueMs - (t.firstResponseDueMs - t.createdAtMs) * atRiskLeft;
}

/** Tickets that crossed their at-risk threshold at `nowMs` and have not been announced yet. */
export function dueForAtRisk(
  tickets: Iterable<Ticket>,
  nowMs: number,
  atRiskLeft: number,
): Ticket[] {
  const out: Ticket[] = [];
  for (const t of tickets) {
    if (t.atRiskFired || isDone(t.status) || t.firstResponseAtMs !== undefined) continue;
    if (nowMs >= atRiskAtMs(t, atRiskLeft)) out.push(t);
  }
  return out;
}
