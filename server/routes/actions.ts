/** Actions shared by macros and rules: set status/priority, add tags, add an agent reply. */
import type { ServiceContext } from '../context.ts';
import { emit, emitStatusChange, messagePayload } from '../events.ts';
import { slaTarget } from '../sla.ts';
import { type MacroActions, type Ticket, newId } from '../store.ts';

export function applyActions(ctx: ServiceContext, t: Ticket, a: MacroActions): void {
  const previous = t.status;
  const now = ctx.clock.now();
  if (a.priority && a.priority !== t.priority && !ctx.faults.has('priority-ignored')) {
    t.priority = a.priority;
    if (ctx.behaviour.slaRecomputed) {
      t.firstResponseDueMs = t.createdAtMs + slaTarget(t.priority, ctx);
      t.atRiskFired = false;
    }
  }
  if (a.tags_add) t.tags = [...new Set([...t.tags, ...a.tags_add])];
  if (a.reply) {
    const m = {
      id: newId('msg'),
      ticketId: t.id,
      workspaceId: t.workspaceId,
      body: a.reply,
      author: 'agent' as const,
      internal: false,
      createdAtMs: now,
    };
    ctx.store.messages.push(m);
    t.firstResponseAtMs ??= now;
    if (!ctx.faults.has('ticket-replied-never'))
      emit(ctx, 'ticket.replied', t, { message: messagePayload(m) });
    emit(ctx, 'agent.replied', t, { message: messagePayload(m) });
  }
  // close-keeps-status is the close operation's alone: a macro's status action still closes.
  if (a.status) t.status = a.status;
  t.updatedAtMs = now;
  emitStatusChange(ctx, t, previous);
}

/** Runs the workspace's enabled rules for `event` on the ticket (rules never trigger rules). */
export function runRules(ctx: ServiceContext, t: Ticket, event: string): void {
  if (ctx.faults.has('rules-never-run')) return;
  const conditions = !ctx.faults.has('rule-conditions-ignored');
  for (const r of ctx.store.rules.values()) {
    // Another workspace's rule never acts here; the switch is read in place (not through its own
    // variable) so the mutation run's ignorer knows it for one.
    const foreign = r.workspaceId !== t.workspaceId && !ctx.faults.has('rules-cross-workspace');
    if (foreign || !r.enabled || r.event !== event) continue;
    if (conditions && r.conditions.priority && r.conditions.priority !== t.priority) continue;
    if (conditions && r.conditions.tag && !t.tags.includes(r.conditions.tag)) continue;
    applyActions(ctx, t, r.actions);
  }
}
