/** API representations of stored records, with the representation faults applied in one place. */
import type { ServiceContext } from './context.ts';
import type { Contact, Message, Rule, Ticket } from './store.ts';

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** FAULT created-at-no-utc: local-looking timestamp without a designator. */
function isoNoZone(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, '');
}

export function ticketJson(t: Ticket, ctx: ServiceContext): Record<string, unknown> {
  const f = ctx.faults;
  const requester: Record<string, string> = { email: t.requester.email };
  if (t.requester.name !== undefined && !f.has('requester-not-echoed')) {
    requester.name = t.requester.name;
  }
  return {
    id: t.id,
    subject: t.subject,
    status: t.status,
    priority: t.priority,
    requester,
    ...(f.has('sla-missing') ? {} : { sla: { first_response_due: iso(t.firstResponseDueMs) } }),
    created_at: f.has('created-at-no-utc') ? isoNoZone(t.createdAtMs) : iso(t.createdAtMs),
    updated_at: iso(t.updatedAtMs),
    tags: t.tags,
  };
}

export function messageJson(m: Message): Record<string, unknown> {
  return {
    id: m.id,
    ticket_id: m.ticketId,
    body: m.body,
    author: m.author,
    internal: m.internal,
    created_at: iso(m.createdAtMs),
  };
}

export function contactJson(c: Contact): Record<string, unknown> {
  return {
    id: c.id,
    email: c.email,
    ...(c.name !== undefined ? { name: c.name } : {}),
    created_at: iso(c.createdAtMs),
  };
}

export function ruleJson(r: Rule): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    event: r.event,
    conditions: r.conditions,
    actions: r.actions,
    enabled: r.enabled,
    created_at: iso(r.createdAtMs),
  };
}
