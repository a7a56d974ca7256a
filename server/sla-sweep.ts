/** Fires `sla.at_risk` for tickets past their threshold; run on a timer and after clock jumps. */
import type { ServiceContext } from './context.ts';
import { emit } from './events.ts';
import { iso } from './represent.ts';
import { dueForAtRisk } from './sla.ts';

export function runSlaSweep(ctx: ServiceContext): number {
  if (ctx.faults.has('sla-at-risk-never')) return 0;
  const now = ctx.clock.now();
  const due = dueForAtRisk(ctx.store.tickets.values(), now, ctx.behaviour.atRiskLeft);
  for (const t of due) {
    t.atRiskFired = true;
    emit(ctx, 'sla.at_risk', t, {
      sla: {
        first_response_due: iso(t.firstResponseDueMs),
        remaining_seconds: Math.max(0, Math.floor((t.firstResponseDueMs - now) / 1000)),
      },
    });
  }
  return due.length;
}
