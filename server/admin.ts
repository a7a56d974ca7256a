/**
 * The dashboard stand-in (docs/assumptions.md U11): workspaces, keys, webhook endpoints, the delivery log,
 * the fault list and clock control. Outside /v1, protected by its own token (`X-Admin-Token`),
 * never rate limited: it is the test rig, not the API under test.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { FAULTS, ruleOf } from './faults.ts';
import { ENTERPRISE_DEFAULT, PLAN_LIMITS } from './plans.ts';
import { sendProblem } from './problem.ts';
import { iso } from './represent.ts';
import type { Plan } from './store.ts';
import type { WebhookEndpoint } from './webhooks/types.ts';
import { runSlaSweep } from './sla-sweep.ts';

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function registerAdminRoutes(app: FastifyInstance): void {
  const ctx = app.svc;

  app.register(async (admin) => {
    admin.addHook('onRequest', async (req, reply) => {
      const token = req.headers['x-admin-token'];
      if (typeof token !== 'string' || !sameToken(token, ctx.adminToken)) {
        return sendProblem(
          reply,
          401,
          'admin_token_required',
          'Send the admin token as X-Admin-Token.',
        );
      }
    });

    admin.get('/admin/workspaces', async () => ({
      data: [...ctx.store.workspaces.values()].map((w) => ({
        id: w.id,
        name: w.name,
        plan: w.plan,
        rate: w.ratePerMin,
        burst: w.burst,
      })),
    }));

    admin.post('/admin/workspaces', async (req, reply) => {
      const b = (req.body ?? {}) as { name?: string; plan?: Plan; rate?: number; burst?: number };
      const plan = b.plan ?? 'team';
      if (!['team', 'growth', 'enterprise'].includes(plan)) {
        return sendProblem(
          reply,
          422,
          'validation_failed',
          'plan must be team, growth or enterprise',
        );
      }
      const limits =
        plan === 'enterprise'
          ? {
              ratePerMin: b.rate ?? ENTERPRISE_DEFAULT.ratePerMin,
              burst: b.burst ?? ENTERPRISE_DEFAULT.burst,
            }
          : PLAN_LIMITS[plan];
      if (!(limits.ratePerMin > 0 && limits.burst >= 1)) {
        return sendProblem(reply, 422, 'validation_failed', 'rate and burst must be positive');
      }
      const ws = ctx.store.addWorkspace({ name: b.name ?? plan, plan, ...limits });
      const full = ctx.store.issueKey(ws.id, 'full');
      const read = ctx.store.issueKey(ws.id, 'read');
      return reply.code(201).send({
        id: ws.id,
        plan,
        rate: ws.ratePerMin,
        burst: ws.burst,
        keys: [
          { id: full.id, scope: 'full', key: full.secret },
          { id: read.id, scope: 'read', key: read.secret },
        ],
      });
    });

    admin.post('/admin/workspaces/:id/keys', async (req, reply) => {
      const ws = ctx.store.workspaces.get((req.params as { id: string }).id);
      if (!ws) return sendProblem(reply, 404, 'not_found', 'No workspace with this id.');
      const scope = ((req.body ?? {}) as { scope?: string }).scope === 'read' ? 'read' : 'full';
      const k = ctx.store.issueKey(ws.id, scope);
      return reply.code(201).send({ id: k.id, scope, key: k.secret });
    });

    /** Which workspace and key id a secret belongs to (the harness needs it to subscribe and rotate). */
    admin.post('/admin/keys/lookup', async (req, reply) => {
      const secret = ((req.body ?? {}) as { key?: string }).key;
      const k = typeof secret === 'string' ? ctx.store.keysBySecret.get(secret) : undefined;
      if (!k || k.revoked)
        return sendProblem(reply, 404, 'not_found', 'No active key with this secret.');
      return { id: k.id, workspace_id: k.workspaceId, scope: k.scope };
    });

    admin.post('/admin/keys/:id/rotate', async (req, reply) => {
      const k = ctx.store.rotateKey((req.params as { id: string }).id);
      if (!k) return sendProblem(reply, 404, 'not_found', 'No active key with this id.');
      return { id: k.id, scope: k.scope, key: k.secret };
    });

    admin.delete('/admin/keys/:id', async (req, reply) => {
      const k = ctx.store.keys.get((req.params as { id: string }).id);
      if (!k) return sendProblem(reply, 404, 'not_found', 'No key with this id.');
      k.revoked = true;
      return reply.code(204).send();
    });

    admin.get('/admin/webhooks', async () => ({
      data: ctx.dispatcher.listEndpoints().map(publicEndpoint),
    }));

    admin.post('/admin/webhooks', async (req, reply) => {
      const b = (req.body ?? {}) as {
        workspace_id?: string;
        url?: string;
        events?: string[];
        secret?: string;
        form?: string;
        /** The PEM certificate an HTTPS receiver of its own is trusted by. */
        ca?: string;
      };
      const errors: string[] = [];
      if (!b.workspace_id || !ctx.store.workspaces.has(b.workspace_id))
        errors.push('workspace_id: unknown workspace');
      if (!b.url || !/^https?:\/\//.test(b.url)) errors.push('url: an http(s) URL is required');
      if (!Array.isArray(b.events) || b.events.length === 0)
        errors.push('events: a non-empty list is required');
      const form = b.form ?? 'prefixed';
      if (!['prefixed', 'plain', 'both'].includes(form))
        errors.push('form: prefixed, plain or both');
      if (b.ca !== undefined && !/^-----BEGIN CERTIFICATE-----/.test(String(b.ca)))
        errors.push('ca: a PEM certificate');
      if (errors.length > 0) return sendProblem(reply, 422, 'validation_failed', errors.join('; '));
      let e: ReturnType<typeof ctx.dispatcher.addEndpoint>;
      try {
        e = ctx.dispatcher.addEndpoint({
          workspaceId: b.workspace_id!,
          url: b.url!,
          events: b.events!,
          secret: b.secret,
          form: form as 'prefixed' | 'plain' | 'both',
          ...(b.ca ? { ca: b.ca } : {}),
        });
      } catch (err) {
        return sendProblem(reply, 422, 'validation_failed', (err as Error).message);
      }
      return reply.code(201).send(publicEndpoint(e));
    });

    admin.delete('/admin/webhooks/:id', async (req, reply) =>
      ctx.dispatcher.removeEndpoint((req.params as { id: string }).id)
        ? reply.code(204).send()
        : sendProblem(reply, 404, 'not_found', 'No endpoint with this id.'),
    );

    admin.get('/admin/deliveries', async (req) => {
      const q = req.query as { workspace_id?: string; endpoint_id?: string };
      return {
        data: ctx.dispatcher.deliveries({ workspaceId: q.workspace_id, endpointId: q.endpoint_id }),
      };
    });

    /** Waits until no delivery is pending (bounded), so tests need not poll. */
    admin.post('/admin/deliveries/flush', async (_req, reply) => {
      try {
        await ctx.dispatcher.idle(15_000);
        return { pending: 0 };
      } catch {
        return reply.code(504).send({ pending: 'timeout' });
      }
    });

    admin.get('/admin/clock', async () => ({ now: iso(ctx.clock.now()), scale: ctx.clock.scale }));

    admin.post('/admin/clock/advance', async (req, reply) => {
      const seconds = Number(((req.body ?? {}) as { seconds?: unknown }).seconds);
      if (!(seconds >= 0) || !Number.isFinite(seconds)) {
        return sendProblem(
          reply,
          422,
          'validation_failed',
          'seconds must be a non-negative number',
        );
      }
      ctx.clock.advance(seconds * 1000);
      // Time for the SLAs, not for the rate limiter: staging's buckets refill in real time only.
      ctx.limiter.jumped?.(seconds * 1000);
      const fired = runSlaSweep(ctx);
      return { now: iso(ctx.clock.now()), sla_at_risk_fired: fired };
    });

    admin.get('/admin/faults', async () => ({
      active: ctx.faults.list(),
      catalogue: FAULTS.map((f) => {
        const { provenance, rule } = ruleOf(f);
        return {
          name: f.name,
          area: f.area,
          provenance,
          check: f.check,
          does: f.does,
          breaks: rule,
        };
      }),
    }));
  });
}

function publicEndpoint(e: WebhookEndpoint) {
  // The secret is write-only: the dashboard never shows it back.
  return {
    id: e.id,
    workspace_id: e.workspaceId,
    url: e.url,
    events: e.events,
    form: e.form,
    has_secret: Boolean(e.secret),
  };
}
