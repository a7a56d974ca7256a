/** POST /v1/tickets/{id}/messages: replies and internal notes, and the events and rules they fire (U1). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { emit, emitStatusChange, messagePayload } from '../events.ts';
import { messageJson } from '../represent.ts';
import { newId } from '../store.ts';
import { runRules } from './actions.ts';
import { ticketInPath } from './tickets.ts';
import { validationFailed, validBody } from './validate.ts';

export async function addMessage(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const t = ticketInPath(ctx, req, reply);
  if (!t) return reply;
  if (!validBody(ctx, reply, 'MessageCreate', req.body)) return reply;
  const body = req.body as { body: string; author: 'agent' | 'customer'; internal?: boolean };
  // Only agents write internal notes; a customer's is refused, or taken as the reply it is (U9).
  const customerNote = body.internal === true && body.author !== 'agent';
  if (customerNote && ctx.behaviour.internalNotes && ctx.behaviour.customerNote === 'reject') {
    return validationFailed(ctx, reply, [
      { field: 'internal', code: 'not_allowed', message: 'only agents write internal notes' },
    ]);
  }
  const now = ctx.clock.now();
  const m = {
    id: newId('msg'),
    ticketId: t.id,
    workspaceId: t.workspaceId,
    body: body.body,
    author: body.author,
    // Without internal notes in the API (U9), `internal` is ignored: every message is public.
    internal: ctx.behaviour.internalNotes && (body.internal ?? false),
    createdAtMs: now,
  };
  ctx.store.messages.push(m);
  t.updatedAtMs = now;
  const extras = { message: messagePayload(m) };
  // A customer's note taken as the reply it is (U9) is stored as sent, and fires a reply's events.
  if (m.internal && !customerNote) {
    emit(ctx, 'ticket.note_added', t, extras);
    // A message was added, if not a reply: some deployments announce it as one (U9).
    if (ctx.behaviour.noteFiresReplied) emit(ctx, 'ticket.replied', t, extras);
  } else {
    if (!ctx.faults.has('ticket-replied-never')) emit(ctx, 'ticket.replied', t, extras);
    if (m.author === 'customer') {
      if (!ctx.faults.has('customer-replied-never')) emit(ctx, 'customer.replied', t, extras);
      runRules(ctx, t, 'customer.replied');
      // A customer reply re-opens a ticket waiting on the customer, or leaves it to an agent (U1).
      if (t.status === 'pending' && ctx.behaviour.customerReplyReopens) {
        t.status = 'open';
        emitStatusChange(ctx, t, 'pending');
      }
    } else {
      emit(ctx, 'agent.replied', t, extras);
      t.firstResponseAtMs ??= now;
    }
    runRules(ctx, t, 'ticket.replied');
  }
  return reply.code(201).send(messageJson(m));
}
