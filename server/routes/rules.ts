/** /v1/rules: list and create a workspace's automation rules (U10); server/routes/actions.ts runs them. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { ruleJson } from '../represent.ts';
import { type Rule, newId } from '../store.ts';
import { validBody } from './validate.ts';

export async function listRules(ctx: ServiceContext, req: FastifyRequest) {
  const ws = req.auth!.workspace.id;
  const mine = [...ctx.store.rules.values()].filter((r) => r.workspaceId === ws);
  // FAULT list-skips-newest: the newest rule (inserted last) is left out.
  if (ctx.faults.has('list-skips-newest')) mine.pop();
  return { data: mine.map(ruleJson) };
}

export async function createRule(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  if (!validBody(ctx, reply, 'RuleCreate', req.body)) return reply;
  const b = req.body as Omit<Rule, 'id' | 'workspaceId' | 'createdAtMs'>;
  const r: Rule = {
    id: newId('rul'),
    workspaceId: req.auth!.workspace.id,
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
}
