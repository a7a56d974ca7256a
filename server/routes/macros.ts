/** /v1/macros: list a workspace's macros and apply one to a ticket (U10). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { emit } from '../events.ts';
import { sendProblem } from '../problem.ts';
import { ticketJson } from '../represent.ts';
import { applyActions } from './actions.ts';
import { findTicket } from './tickets.ts';
import { validBody } from './validate.ts';

export async function listMacros(ctx: ServiceContext, req: FastifyRequest) {
  return {
    data: [...ctx.store.macros.values()]
      .filter((m) => m.workspaceId === req.auth!.workspace.id)
      .map((m) => ({ id: m.id, name: m.name, actions: m.actions })),
  };
}

export async function applyMacro(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const m = ctx.store.macros.get((req.params as { macro_id: string }).macro_id);
  if (!m || m.workspaceId !== req.auth!.workspace.id)
    return sendProblem(reply, 404, 'not_found', 'No macro with this id.');
  if (!validBody(ctx, reply, 'MacroApply', req.body)) return reply;
  const t = findTicket(ctx, req, reply, (req.body as { ticket_id: string }).ticket_id);
  if (!t) return reply;
  // FAULT macro-tags-ignored: the macro's tags_add action is lost on the way (rules keep theirs).
  const { tags_add: _dropped, ...withoutTags } = m.actions;
  applyActions(ctx, t, ctx.faults.has('macro-tags-ignored') ? withoutTags : m.actions);
  emit(ctx, 'macro.applied', t, { macro: { id: m.id, name: m.name } });
  return ticketJson(t, ctx);
}
