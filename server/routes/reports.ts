/** GET /v1/reports/summary: ticket counts by status and priority, SLA at risk and breached (U10). */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { iso } from '../represent.ts';
import { atRiskAtMs } from '../sla.ts';
import { isDone, type Ticket } from '../store.ts';

export async function reportSummary(ctx: ServiceContext, req: FastifyRequest) {
  const ws = req.auth!.workspace.id;
  const now = ctx.clock.now();
  const every = ctx.faults.has('report-counts-every-workspace');
  const mine = [...ctx.store.tickets.values()].filter((t) => every || t.workspaceId === ws);
  const count = (key: (t: Ticket) => string) =>
    mine.reduce<Record<string, number>>((acc, t) => {
      acc[key(t)] = (acc[key(t)] ?? 0) + 1;
      return acc;
    }, {});
  const byPriority = count((t) => t.priority);
  if (ctx.faults.has('report-skips-normal')) delete byPriority.normal;
  const waiting = mine.filter((t) => !isDone(t.status) && t.firstResponseAtMs === undefined);
  return {
    generated_at: iso(now),
    tickets: { total: mine.length, by_status: count((t) => t.status), by_priority: byPriority },
    sla: {
      at_risk: waiting.filter(
        (t) => now >= atRiskAtMs(t, ctx.behaviour.atRiskLeft) && now < t.firstResponseDueMs,
      ).length,
      breached: waiting.filter((t) => now >= t.firstResponseDueMs).length,
    },
  };
}
