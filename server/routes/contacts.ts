/** /v1/contacts: list, create, get, update and delete a contact of the caller's workspace (U10). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { sendProblem } from '../problem.ts';
import { contactJson } from '../represent.ts';
import { type Contact, newId } from '../store.ts';
import { decodeCursor, encodeCursor, parseListQuery } from './pagination.ts';
import { validationFailed, validBody, validUpdate } from './validate.ts';

/** The contact named by `:contact_id` in the caller's workspace, or undefined (a 404 was sent). */
function contactInPath(
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Contact | undefined {
  const c = ctx.store.contacts.get((req.params as { contact_id: string }).contact_id);
  // FAULT get-contact-cross-workspace: reads look the contact up without its workspace.
  const leak = ctx.faults.has('get-contact-cross-workspace') && req.method === 'GET';
  if (c && (c.workspaceId === req.auth!.workspace.id || leak)) return c;
  sendProblem(reply, 404, 'not_found', 'No contact with this id.');
  return undefined;
}

export async function listContacts(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const q = parseListQuery(req.query as Record<string, unknown>, {});
  if ('errors' in q) return validationFailed(ctx, reply, q.errors);
  const after = q.cursor === undefined ? Number.POSITIVE_INFINITY : decodeCursor(q.cursor);
  if (after === undefined) {
    return validationFailed(ctx, reply, [
      { field: 'cursor', code: 'invalid', message: 'unknown cursor' },
    ]);
  }
  const rest = [...ctx.store.contacts.values()]
    .filter((c) => c.workspaceId === req.auth!.workspace.id && c.seq < after)
    .sort((a, b) => b.seq - a.seq)
    .slice(ctx.faults.has('list-skips-newest') && q.cursor === undefined ? 1 : 0);
  const page = rest.slice(0, q.limit);
  const hasMore = rest.length > q.limit;
  return {
    data: page.map(contactJson),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.seq) : null,
  };
}

export async function createContact(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  if (!validBody(ctx, reply, 'ContactCreate', req.body)) return reply;
  const b = req.body as { email: string; name?: string };
  const c: Contact = {
    id: newId('ctc'),
    seq: ctx.store.nextSeq(),
    workspaceId: req.auth!.workspace.id,
    email: b.email,
    name: ctx.faults.has('contact-name-dropped') ? undefined : b.name,
    createdAtMs: ctx.clock.now(),
  };
  ctx.store.contacts.set(c.id, c);
  reply.header('location', `/v1/contacts/${c.id}`);
  return reply
    .code(ctx.behaviour.resources === 'contact-created-200' ? 200 : 201)
    .send(contactJson(c));
}

export async function getContact(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const c = contactInPath(ctx, req, reply);
  return c ? contactJson(c) : reply;
}

export async function updateContact(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const c = contactInPath(ctx, req, reply);
  if (!c) return reply;
  const b = validUpdate<{ email?: string; name?: string }>(ctx, reply, 'ContactUpdate', req.body);
  if (!b) return reply;
  if (b.email !== undefined) c.email = b.email;
  if (b.name !== undefined && !ctx.faults.has('contact-name-dropped')) c.name = b.name;
  return contactJson(c);
}

export async function deleteContact(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const c = contactInPath(ctx, req, reply);
  if (!c) return reply;
  ctx.store.contacts.delete(c.id);
  return reply.code(204).send();
}
