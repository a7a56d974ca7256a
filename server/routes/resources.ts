/** Contacts, macros, rules and reports (docs/assumptions.md U10): small, coherent, workspace-scoped. */
import type { FastifyInstance } from 'fastify';
import { emit } from '../events.ts';
import { sendProblem } from '../problem.ts';
import { contactJson, iso, ruleJson, ticketJson } from '../represent.ts';
import { atRiskAtMs } from '../sla.ts';
import { type Contact, type Rule, newId } from '../store.ts';
import { applyActions } from './actions.ts';
import { decodeCursor, encodeCursor, parseListQuery } from './pagination.ts';
import { findTicket } from './tickets.ts';
import { validationFailed, validBody } from './validate.ts';

export function registerResourceRoutes(app: FastifyInstance): void {
  const ctx = app.svc;
  const ws = (req: { auth?: { workspace: { id: string } } }) => req.auth!.workspace.id;

  // --- contacts ---------------------------------------------------------------------------
  app.get('/v1/contacts', { config: { scope: 'read' } }, async (req, reply) => {
    const q = parseListQuery(req.query as Record<string, unknown>, {});
    if ('errors' in q) return validationFailed(ctx, reply, q.errors);
    const after = q.cursor === undefined ? Number.POSITIVE_INFINITY : decodeCursor(q.cursor);
    if (after === undefined) {
      return validationFailed(ctx, reply, [
        { field: 'cursor', code: 'invalid', message: 'unknown cursor' },
      ]);
    }
    const rest = [...ctx.store.contacts.values()]
      .filter((c) => c.workspaceId === ws(req) && c.seq < after)
      .sort((a, b) => b.seq - a.seq)
      .slice(ctx.faults.has('list-skips-newest') && q.cursor === undefined ? 1 : 0);
    const page = rest.slice(0, q.limit);
    const hasMore = rest.length > q.limit;
    return {
      data: page.map(contactJson),
      has_more: hasMore,
      next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.seq) : null,
    };
  });

  app.post('/v1/contacts', { config: { scope: 'write' } }, async (req, reply) => {
    if (!validBody(ctx, reply, 'ContactCreate', req.body)) return reply;
    const b = req.body as { email: string; name?: string };
    const c: Contact = {
      id: newId('ctc'),
      seq: ctx.store.nextSeq(),
      workspaceId: ws(req),
      email: b.email,
      name: ctx.faults.has('contact-name-dropped') ? undefined : b.name,
      createdAtMs: ctx.clock.now(),
    };
    ctx.store.contacts.set(c.id, c);
    reply.header('location', `/v1/contacts/${c.id}`);
    return reply.code(ctx.faults.has('contact-create-200') ? 200 : 201).send(contactJson(c));
  });

  const findContact = (id: string, workspaceId: string) => {
    const c = ctx.store.contacts.get(id);
    return c && c.workspaceId === workspaceId ? c : undefined;
  };

  app.get('/v1/contacts/:contact_id', { config: { scope: 'read' } }, async (req, reply) => {
    const c = findContact((req.params as { contact_id: string }).contact_id, ws(req));
    return c ? contactJson(c) : sendProblem(reply, 404, 'not_found', 'No contact with this id.');
  });

  app.patch('/v1/contacts/:contact_id', { config: { scope: 'write' } }, async (req, reply) => {
    const c = findContact((req.params as { contact_id: string }).contact_id, ws(req));
    if (!c) return sendProblem(reply, 404, 'not_found', 'No contact with this id.');
    if (!validBody(ctx, reply, 'ContactUpdate', req.body)) return reply;
    const b = req.body as { email?: string; name?: string };
    if (b.email !== undefined) c.email = b.email;
    if (b.name !== undefined && !ctx.faults.has('contact-name-dropped')) c.name = b.name;
    return contactJson(c);
  });

  app.delete('/v1/contacts/:contact_id', { config: { scope: 'write' } }, async (req, reply) => {
    const c = findContact((req.params as { contact_id: string }).contact_id, ws(req));
    if (!c) return sendProblem(reply, 404, 'not_found', 'No contact with this id.');
    ctx.store.contacts.delete(c.id);
    return reply.code(204).send();
  });

  // --- macros -----------------------------------------------------------------------------
  app.get('/v1/macros', { config: { scope: 'read' } }, async (req) => ({
    data: [...ctx.store.macros.values()]
      .filter((m) => m.workspaceId === ws(req))
      .map((m) => ({ id: m.id, name: m.name, actions: m.actions })),
  }));

  app.post('/v1/macros/:macro_id/apply', { config: { scope: 'write' } }, async (req, reply) => {
    const m = ctx.store.macros.get((req.params as { macro_id: string }).macro_id);
    if (!m || m.workspaceId !== ws(req))
      return sendProblem(reply, 404, 'not_found', 'No macro with this id.');
    if (!validBody(ctx, reply, 'MacroApply', req.body)) return reply;
    const t = findTicket(ctx, req, reply, (req.body as { ticket_id: string }).ticket_id);
    if (!t) return reply;
    // FAULT macro-tags-ignored: the macro's tags_add action is lost on the way (rules keep theirs).
    const { tags_add: _dropped, ...withoutTags } = m.actions;
    applyActions(ctx, t, ctx.faults.has('macro-tags-ignored') ? withoutTags : m.actions);
    emit(ctx, 'macro.applied', t, { macro: { id: m.id, name: m.name } });
    return ticketJson(t, ctx);
  });

  // --- rules ------------------------------------------------------------------------------
  app.get('/v1/rules', { config: { scope: 'read' } }, async (req) => {
    const mine = [...ctx.store.rules.values()].filter((r) => r.workspaceId === ws(req));
    // FAULT list-skips-newest: the newest rule (inserted last) is left out.
    if (ctx.faults.has('list-skips-newest')) mine.pop();
    return { data: mine.map(ruleJson) };
  });

  app.post('/v1/rules', { config: { scope: 'write' } }, async (req, reply) => {
    if (!validBody(ctx, reply, 'RuleCreate', req.body)) return reply;
    const b = req.body as Omit<Rule, 'id' | 'workspaceId' | 'createdAtMs'>;
    const r: Rule = {
      id: newId('rul'),
      workspaceId: ws(req),
      name: b.name,
      event: b.event,
      conditions: b.conditions ?? {},
      actions: b.actions,
      enabled: b.enabled ?? true,
      createdAtMs: ctx.clock.now(),
    };
    ctx.store.rules.set(r.id, r);
    reply.header('location', `/v1/rules/${r.id}`);
    return reply.code(201).send(ruleJson(r));
  });

  // --- reports ----------------------------------------------------------------------------
  app.get('/v1/reports/summary', { config: { scope: 'read' } }, async (req) => {
    const now = ctx.clock.now();
    const mine = [...ctx.store.tickets.values()].filter((t) => t.workspaceId === ws(req));
    const count = (key: (t: (typeof mine)[number]) => string) =>
      mine.reduce<Record<string, number>>((acc, t) => {
        acc[key(t)] = (acc[key(t)] ?? 0) + 1;
        return acc;
      }, {});
    const byPriority = count((t) => t.priority);
    if (ctx.faults.has('report-skips-normal')) delete byPriority.normal;
    const waiting = mine.filter((t) => t.status !== 'closed' && t.firstResponseAtMs === undefined);
    return {
      generated_at: iso(now),
      tickets: {
        total: mine.length,
        by_status: count((t) => t.status),
        by_priority: byPriority,
      },
      sla: {
        at_risk: waiting.filter(
          (t) => now >= atRiskAtMs(t, ctx.faults) && now < t.firstResponseDueMs,
        ).length,
        breached: waiting.filter((t) => now >= t.firstResponseDueMs).length,
      },
    };
  });
}
