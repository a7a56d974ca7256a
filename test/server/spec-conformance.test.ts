/**
 * The reference deployment answers only what the spec says: every operation of spec/openapi.yaml
 * gets a battery of requests (valid, unauthenticated, read-only, unknown ids, broken bodies and
 * queries); each answer's status must be one the spec lists for that operation, its body must
 * validate against the schema the spec gives that status, and it carries the X-RateLimit headers.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { validate } from '../../core/schemas/registry.ts';
import { type OperationSpec, operations } from '../../core/spec/operations.ts';
import { makeService, newTicket } from './harness.ts';

const svc = makeService({ anonymousLimit: { ratePerMin: 1e6, burst: 1e6 } });
after(() => svc.close());

// A workspace that never runs dry, so no variant turns into a 429 by accident.
let keys: { full: string; read: string } | undefined;
async function bigKeys() {
  if (keys) return keys;
  const r = await svc.admin('POST', '/admin/workspaces', {
    plan: 'enterprise',
    rate: 1e6,
    burst: 1e6,
  });
  const k = r.json.keys as Array<{ scope: string; key: string }>;
  keys = {
    full: k.find((x) => x.scope === 'full')!.key,
    read: k.find((x) => x.scope === 'read')!.key,
  };
  return keys;
}

const VALID_BODY: Record<string, (ids: Ids) => unknown> = {
  createTicket: () => newTicket(),
  updateTicket: () => ({ priority: 'high' }),
  addMessage: () => ({ body: 'Any news?', author: 'customer' }),
  createContact: () => ({ email: 'c@example.com', name: 'C' }),
  updateContact: () => ({ name: 'Renamed' }),
  applyMacro: (ids) => ({ ticket_id: ids.ticket_id }),
  createRule: () => ({
    name: 'tag it',
    event: 'ticket.created',
    actions: { tags_add: ['auto'] },
  }),
};

type Ids = Record<string, string>;

/** Fresh objects of the big workspace for each request, so a DELETE never spoils the next. */
async function freshIds(full: string): Promise<Ids> {
  const t = await svc.call('POST', '/v1/tickets', full, newTicket());
  const c = await svc.call('POST', '/v1/contacts', full, { email: 'x@example.com' });
  const ws = [...svc.ctx.store.keys.values()].find((k) => k.secret === full)!.workspaceId;
  let macro = [...svc.ctx.store.macros.values()].find((m) => m.workspaceId === ws);
  if (!macro) {
    // The admin-created workspace has no seeded macros: borrow one shape for it.
    const seeded = [...svc.ctx.store.macros.values()][0]!;
    macro = { ...seeded, id: `mac_${ws}`, workspaceId: ws };
    svc.ctx.store.macros.set(macro.id, macro);
  }
  return { ticket_id: t.json.id, contact_id: c.json.id, macro_id: macro.id };
}

interface Variant {
  name: string;
  key?: 'full' | 'read' | 'none' | 'invalid' | 'other';
  ids?: 'fresh' | 'unknown';
  query?: string;
  /** undefined: the valid body (if the operation takes one); else raw payload and type. */
  body?: { payload: string; type?: string };
}

const BIG = 'x'.repeat(1024 * 1024 + 10);
const VARIANTS: Variant[] = [
  { name: 'valid' },
  { name: 'no key', key: 'none' },
  { name: 'invalid key', key: 'invalid' },
  { name: 'read-only key', key: 'read' },
  { name: "another workspace's key", key: 'other' },
  { name: 'unknown ids', ids: 'unknown' },
  { name: 'bad query', query: '?limit=0&cursor=&status=nope&priority=1' },
  { name: 'repeated query', query: '?limit=1&limit=2' },
  { name: 'foreign cursor', query: '?cursor=bm9wZQ' },
  { name: 'malformed JSON', body: { payload: '{"subject":', type: 'application/json' } },
  { name: 'empty JSON body', body: { payload: '', type: 'application/json' } },
  { name: 'JSON null', body: { payload: 'null', type: 'application/json' } },
  { name: 'JSON array', body: { payload: '[]', type: 'application/json' } },
  { name: 'JSON string', body: { payload: '"x"', type: 'application/json' } },
  { name: 'text/plain', body: { payload: '{}', type: 'text/plain' } },
  { name: 'no content type', body: { payload: '{}' } },
  { name: 'over 1 MiB', body: { payload: `{"subject":"${BIG}"}`, type: 'application/json' } },
];

async function send(op: OperationSpec, v: Variant) {
  const k = await bigKeys();
  const ids: Ids = v.ids === 'unknown' ? {} : await freshIds(k.full);
  const path = op.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(ids[name] ?? `${name.split('_')[0]}_unknown`),
  );
  const headers: Record<string, string> = {};
  const key =
    v.key === 'none'
      ? undefined
      : v.key === 'invalid'
        ? 'stk_full_not_a_key'
        : v.key === 'read'
          ? k.read
          : v.key === 'other'
            ? svc.ws.other.keys.full
            : k.full;
  if (key) headers.authorization = `Bearer ${key}`;
  let payload: string | undefined;
  if (v.body) {
    payload = v.body.payload;
    if (v.body.type) headers['content-type'] = v.body.type;
  } else if (VALID_BODY[op.operationId]) {
    payload = JSON.stringify(VALID_BODY[op.operationId]!(ids));
    headers['content-type'] = 'application/json';
  }
  const res = await svc.app.inject({
    method: op.method as 'GET',
    url: `${path}${v.query ?? ''}`,
    headers,
    payload,
  });
  return res;
}

describe('every answer of every operation is one the spec documents', () => {
  for (const op of operations()) {
    test(`${op.operationId} (${op.method} ${op.template})`, async () => {
      for (const v of VARIANTS) {
        const res = await send(op, v);
        const where = `${op.operationId} / ${v.name}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        const spec = op.responses.get(String(res.statusCode));
        assert.notEqual(spec, undefined, `status not in the spec: ${where}`);
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          assert.match(String(res.headers[h] ?? ''), /^\d+$/, `${h} missing: ${where}`);
        }
        for (const h of spec!.requiredHeaders) {
          assert.notEqual(res.headers[h], undefined, `required header ${h} missing: ${where}`);
        }
        if (spec!.contentType) {
          const type = String(res.headers['content-type'] ?? '').split(';')[0];
          assert.equal(type, spec!.contentType, `content type: ${where}`);
        } else {
          assert.equal(res.body, '', `a body where the spec has none: ${where}`);
        }
        if (spec!.schema) {
          assert.deepEqual(validate(spec!.schema, JSON.parse(res.body)), [], where);
        }
      }
    });
  }
});
