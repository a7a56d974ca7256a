/**
 * Faults of the ticket list's documented minimum (tickets.list-holds-tickets: "List tickets …
 * Ticket representations"), applied to GET /v1/tickets's answer as it leaves. A hook of its own,
 * installed only when one of them is on: the correct deployment runs none of this code.
 */
import type { FastifyInstance } from 'fastify';

export function installListFaults(app: FastifyInstance): void {
  const faults = app.svc.faults;
  if (!faults.has('list-without-tickets') && !faults.has('list-default-limit-zero')) return;
  app.addHook('onSend', async (req, reply, payload) => {
    if (
      req.method !== 'GET' ||
      req.routeOptions.url !== '/v1/tickets' ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    )
      return payload;
    const list = JSON.parse(payload) as Record<string, unknown>;
    // FAULT list-without-tickets: the envelope's paging keys, but no list of tickets at all.
    if (faults.has('list-without-tickets')) delete list.data;
    // FAULT list-default-limit-zero: without ?limit the page size is 0 — no ticket listed, more
    // said to follow, and no cursor to follow them with (the first page's last ticket is none).
    const listed = Array.isArray(list.data) && list.data.length > 0;
    if (faults.has('list-default-limit-zero') && !('limit' in (req.query as object)) && listed) {
      list.data = [];
      list.has_more = true;
      list.next_cursor = null;
      reply.removeHeader('link');
    }
    return JSON.stringify(list);
  });
}
