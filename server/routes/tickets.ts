/**
 * /v1/tickets: list, create, get, update and close a ticket (docs/assumptions.md U4–U9), and
 * finding the ticket a request names (workspace visibility, U21) for every route that takes one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { emit, emitStatusChange } from '../events.ts';
import { sendProblem } from '../problem.ts';
import { ticketJson } from '../represent.ts';
import { slaTarget } from '../sla.ts';
import { isDone, type Priority, type Status, type Ticket, newId } from '../store.ts';
import { runRules } from './actions.ts';
import { decodeCursor, encodeCursor, listAnswer, pageOf, parseListQuery } from './pagination.ts';
import { validationFailed, validBody, validUpdate } from './validate.ts';

const STATUSES = ['open', 'pending', 'on_hold', 'closed'] as const;
/** The statuses of this deployment: ours, and `resolved` where the close operation leaves it (U1). */
const statusesOf = (ctx: ServiceContext): readonly Status[] =>
  ctx.behaviour.closeStatus === 'resolved' ? [...STATUSES, 'resolved'] : STATUSES;
const PRIORITIES = ['low', 'normal', 'high'] as const;
/** A character outside the Basic Multilingual Plane (what a 3-byte utf8 column cannot hold). */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const ASTRAL_ALL = /[\u{10000}-\u{10FFFF}]/gu;
type TicketPatch = { subject?: string; priority?: Priority; status?: Status; tags?: string[] };

/** The caller's ticket, or undefined (a 404 sent: foreign = unknown, U21; or a reading's 400/403). */
export function findTicket(
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  id: string,
): Ticket | undefined {
  const t = ctx.store.tickets.get(id);
  const read = /^(GET|HEAD)$/.test(req.method);
  // The fault names reads only: writes to a foreign ticket stay 404 under it.
  const leak =
    (ctx.faults.has('cross-workspace-read') && read) ||
    (ctx.faults.has('foreign-write-accepted') && !read);
  // FAULT get-ticket-no-auth: the guard let a request without a key through (server/guard.ts).
  const visible =
    t &&
    (req.auth
      ? t.workspaceId === req.auth.workspace.id || leak
      : ctx.faults.has('get-ticket-no-auth'));
  if (visible) return t;
  if (!t && ctx.behaviour.unknownTicketStatus === 400) {
    sendProblem(reply, 400, 'invalid_id', 'The ticket id is not valid.');
    return undefined;
  }
  if (t && ctx.behaviour.foreignTicketStatus === 403) {
    sendProblem(reply, 403, 'forbidden', 'The ticket belongs to another workspace.');
    return undefined;
  }
  if (t && !read && req.method === 'PATCH' && ctx.faults.has('foreign-write-applied-404')) {
    // The fault: the update goes through before the workspace check answers.
    const subject = (req.body as { subject?: unknown } | undefined)?.subject;
    if (typeof subject === 'string') t.subject = subject;
    t.updatedAtMs = ctx.clock.now();
  }
  sendProblem(reply, 404, 'not_found', 'No ticket with this id.');
  return undefined;
}

/** The ticket named by the `:ticket_id` path parameter, as `findTicket`. */
export function ticketInPath(
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Ticket | undefined {
  return findTicket(ctx, req, reply, (req.params as { ticket_id: string }).ticket_id);
}

export async function listTickets(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const b = ctx.behaviour;
  // A filter the deployment does not have is an unknown query parameter: ignored, not validated.
  const filters = { status: statusesOf(ctx), priority: PRIORITIES };
  const known = { 'status-priority': filters, status: { status: filters.status }, none: {} };
  const q = parseListQuery(
    req.query as Record<string, unknown>,
    known[b.listFilters] as typeof filters,
    { paged: b.listPaging === 'cursor', max: b.pageMax },
  );
  if ('errors' in q) return validationFailed(ctx, reply, q.errors);
  const ws = req.auth!.workspace.id;
  const { status, priority } = q.filters;
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  if (q.cursor !== undefined && after === undefined) {
    return validationFailed(ctx, reply, [
      { field: 'cursor', code: 'invalid', message: 'cursor is not one this API issued' },
    ]);
  }
  const matches = (t: Ticket) =>
    // FAULT filter-stale-status: the status=closed index is the one at creation (every ticket
    // is created open), so a ticket closed since is missing there; other filters are right.
    (!status ||
      (status === 'closed' && ctx.faults.has('filter-stale-status') ? 'open' : t.status) ===
        status) &&
    (!priority || t.priority === priority);
  // From the cursor on: a page costs its own size, not the workspace's (a long-lived workspace
  // holds thousands; unless a filter matches few of them).
  const { page, more } = pageOf(
    ctx.store.ticketsInOrder(ctx.faults.has('list-leaks-workspaces') ? undefined : ws),
    {
      after,
      limit: q.limit,
      newestFirst: b.listOrder === 'newest-first',
      keep: matches,
      overlap: ctx.faults.has('pagination-overlap'),
      // FAULT pagination-skips-one: the first ticket after a cursor is never listed.
      skip: after !== undefined && ctx.faults.has('pagination-skips-one') ? 1 : 0,
    },
  );
  const last = page[page.length - 1];
  const next = more && last ? encodeCursor(last.seq) : null;
  let nextUrl: string | null = null;
  if (next) {
    const params = new URLSearchParams({ limit: String(q.limit), cursor: next });
    if (status) params.set('status', status);
    if (priority) params.set('priority', priority);
    nextUrl = `/v1/tickets?${params}`;
    reply.header('link', `<${nextUrl}>; rel="next"`);
  }
  const data = page.map((t) => ticketJson(t, ctx));
  return listAnswer(b, data, next, nextUrl);
}

export async function createTicket(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const body = req.body as Record<string, any> | undefined;
  const isObject = !!body && typeof body === 'object';
  if (isObject && !body.requester && ctx.faults.has('missing-requester-500')) {
    throw new Error('requester is undefined'); // the fault: an unguarded dereference
  }
  // FAULT subject-not-required: a creation without a subject gets a placeholder instead of a 422.
  if (isObject && body.subject === undefined && ctx.faults.has('subject-not-required')) {
    body.subject = '(no subject)';
  }
  // FAULT subject-over-300-500: the subject goes into a 300-character index before validation.
  if (
    isObject &&
    typeof body.subject === 'string' &&
    body.subject.length > 300 &&
    [...body.subject].length > 300 &&
    ctx.faults.has('subject-over-300-500')
  )
    throw new Error('value too long for type character varying(300)');
  if (!validBody(ctx, reply, 'TicketCreate', body)) return reply;
  // The requester's name too, where this deployment requires it (U3).
  if (ctx.behaviour.requesterRequires === 'email-and-name' && body!.requester.name === undefined)
    return validationFailed(ctx, reply, [
      { field: 'requester.name', code: 'required', message: 'requester.name is required' },
    ]);
  // FAULT subject-astral-500: a 3-byte utf8 column refuses a character outside the BMP.
  if (ASTRAL.test(body!.subject) && ctx.faults.has('subject-astral-500'))
    throw new Error("Incorrect string value for column 'subject'");
  // FAULT tags-over-20-500: 20 tag slots, though the schema allows 50 tags.
  if ((body!.tags?.length ?? 0) > 20 && ctx.faults.has('tags-over-20-500'))
    throw new Error('tag slot 21 does not exist');
  const now = ctx.clock.now();
  const priority: Priority = ctx.faults.has('priority-ignored')
    ? 'normal'
    : ((body!.priority as Priority | undefined) ?? ctx.behaviour.defaultPriority);
  const t: Ticket = {
    id: newId('tkt'),
    seq: ctx.store.nextSeq(),
    workspaceId: req.auth!.workspace.id,
    // FAULT subject-astral-replaced: a lenient 3-byte utf8 column stores "?" for each of them.
    subject: ctx.faults.has('subject-astral-replaced')
      ? body!.subject.replace(ASTRAL_ALL, '?')
      : body!.subject,
    status: 'open',
    priority,
    requester: { email: body!.requester.email, name: body!.requester.name },
    tags: [...new Set<string>(body!.tags ?? [])],
    createdAtMs: now,
    updatedAtMs: now,
    firstResponseDueMs: now + slaTarget(priority, ctx),
    atRiskFired: false,
  };
  ctx.store.addTicket(t);
  if (typeof body!.message === 'string' && body!.message.length > 0) {
    ctx.store.messages.push({
      id: newId('msg'),
      ticketId: t.id,
      workspaceId: t.workspaceId,
      body: body!.message,
      author: 'customer',
      internal: false,
      createdAtMs: now,
    });
  }
  emit(ctx, 'ticket.created', t);
  runRules(ctx, t, 'ticket.created');
  const json = ticketJson(t, ctx);
  // The response to creation shows the status the ticket was created with (documented: open).
  json.status = ctx.faults.has('create-status-new') ? 'new' : 'open';
  // 201 and where the ticket is, or 200 and the ticket alone (U5).
  if (ctx.behaviour.createAnswer === '200') return reply.code(200).send(json);
  reply.header('location', `/v1/tickets/${t.id}`);
  return reply.code(201).send(json);
}

export async function getTicket(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const t = ticketInPath(ctx, req, reply);
  if (!t) return reply;
  const json = ticketJson(t, ctx);
  if (ctx.faults.has('get-priority-normal')) json.priority = 'normal';
  // The ticket itself, or in an envelope (U8).
  return ctx.behaviour.getAnswer === 'wrapped' ? { ticket: json } : json;
}

export async function updateTicket(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const t = ticketInPath(ctx, req, reply);
  if (!t) return reply;
  if (
    ctx.behaviour.updateMedia === 'json' &&
    /^application\/merge-patch\+json\b/i.test(req.headers['content-type'] ?? '')
  )
    return sendProblem(reply, 415, 'unsupported_media_type', 'An update is application/json.');
  const patch = validUpdate<TicketPatch>(ctx, reply, 'TicketUpdate', req.body, statusesOf(ctx));
  if (!patch) return reply;
  // Closing is the close operation's alone where this deployment says so (U7).
  if (!ctx.behaviour.patchCloses && patch.status !== undefined && isDone(patch.status))
    return validationFailed(ctx, reply, [
      {
        field: 'status',
        code: 'not_allowed',
        message: 'a ticket is closed by its close operation',
      },
    ]);
  const previous = t.status;
  if (patch.subject !== undefined && !ctx.faults.has('patch-subject-ignored'))
    t.subject = patch.subject;
  if (patch.tags !== undefined) t.tags = [...new Set(patch.tags)];
  if (patch.priority !== undefined && !ctx.faults.has('priority-ignored')) {
    t.priority = patch.priority;
    // A priority change recomputes the SLA (docs/assumptions.md); the at-risk announcement re-arms.
    if (ctx.behaviour.slaRecomputed) {
      t.firstResponseDueMs = t.createdAtMs + slaTarget(t.priority, ctx);
      t.atRiskFired = false;
    }
  }
  // close-keeps-status is the close operation's alone: PATCH {status: closed} still closes.
  if (patch.status !== undefined) t.status = patch.status;
  t.updatedAtMs = ctx.clock.now();
  emitStatusChange(ctx, t, previous);
  return ticketJson(t, ctx);
}

export async function closeTicket(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  const t = ticketInPath(ctx, req, reply);
  if (!t) return reply;
  const previous = t.status;
  // Closing a closed ticket: harmless, or a conflict (U7).
  if (isDone(previous) && ctx.behaviour.closeClosed === 'conflict')
    return sendProblem(reply, 409, 'conflict', 'The ticket is already closed.');
  // Closed or resolved (U1); a ticket already closed stays as it is.
  if (!ctx.faults.has('close-keeps-status') && !isDone(previous))
    t.status = ctx.behaviour.closeStatus;
  if (previous !== t.status) t.updatedAtMs = ctx.clock.now();
  emitStatusChange(ctx, t, previous);
  return ticketJson(t, ctx);
}
