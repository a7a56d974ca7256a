/** The /v1 API's route table: each route, the key scope it needs (server/guard.ts), its handler. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import {
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from './contacts.ts';
import { applyMacro, listMacros } from './macros.ts';
import { addMessage } from './messages.ts';
import { reportSummary } from './reports.ts';
import { createRule, listRules } from './rules.ts';
import { closeTicket, createTicket, getTicket, listTickets, updateTicket } from './tickets.ts';

type Handler = (ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function registerApiRoutes(app: FastifyInstance): void {
  const ctx = app.svc;
  const read = { config: { scope: 'read' as const } };
  const write = { config: { scope: 'write' as const } };
  const on = (h: Handler) => (req: FastifyRequest, reply: FastifyReply) => h(ctx, req, reply);

  app.get('/v1/tickets', read, on(listTickets));
  app.post('/v1/tickets', write, on(createTicket));
  app.get('/v1/tickets/:ticket_id', read, on(getTicket));
  app.patch('/v1/tickets/:ticket_id', write, on(updateTicket));
  app.post('/v1/tickets/:ticket_id/close', write, on(closeTicket));
  app.post('/v1/tickets/:ticket_id/messages', write, on(addMessage));
  // U10=no-resources: none of the others is exposed; their paths are answered as any unknown one.
  if (ctx.behaviour.resources === 'absent') return;

  app.get('/v1/contacts', read, on(listContacts));
  app.post('/v1/contacts', write, on(createContact));
  app.get('/v1/contacts/:contact_id', read, on(getContact));
  app.patch('/v1/contacts/:contact_id', write, on(updateContact));
  app.delete('/v1/contacts/:contact_id', write, on(deleteContact));

  app.get('/v1/macros', read, on(listMacros));
  app.post('/v1/macros/:macro_id/apply', write, on(applyMacro));
  app.get('/v1/rules', read, on(listRules));
  app.post('/v1/rules', write, on(createRule));
  app.get('/v1/reports/summary', read, on(reportSummary));
}
