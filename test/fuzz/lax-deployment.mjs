/**
 * A lax deployment of the ticket API, independent of the reference one (server/): it validates
 * only what the service docs state — the creation input's required fields, their types and the
 * priority enum — and takes everything else: no body-size limit, an update field of the wrong
 * type is ignored (the rest of the patch applies), unknown fields are ignored, any message with a
 * string body is stored. Like staging in the wild, it keeps what earlier runs left: a ticket with
 * a 1 MiB subject is in every list answer after it. Run as its own process:
 *
 *   LAX_KEY=… node --stack-size=4000 test/fuzz/lax-deployment.mjs     prints `listening on PORT`

 * (the larger stack lets it write back the arrays nested 10 000 deep that it keeps).
 *
 * It has no summary report (the fuzz counts tickets by walking the list) and no rate limit.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const KEY = process.env.LAX_KEY ?? '';
const PRIORITIES = ['low', 'normal', 'high'];
const STATUSES = ['open', 'pending', 'on_hold', 'closed'];
const SLA_HOURS = { high: 1, normal: 4, low: 24 };
/** Newest last; listed newest first. */
const tickets = [];
const byId = new Map();

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

function send(res, status, body, type = 'application/json', extra = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, ...extra });
  res.end(text);
}

function problem(res, status, code, title) {
  send(
    res,
    status,
    { type: 'about:blank', title, status, code, request_id: randomUUID() },
    'application/problem+json',
  );
}

function dueAfter(createdAt, priority) {
  return new Date(Date.parse(createdAt) + SLA_HOURS[priority] * 3.6e6)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
}

/** What the docs say a creation input is; the first way `b` is not one, or undefined. */
function creationProblem(b) {
  if (!isRecord(b)) return 'the body is not a JSON object';
  if (typeof b.subject !== 'string') return 'subject is required, a string';
  if (!isRecord(b.requester)) return 'requester is required, an object';
  if ('message' in b && typeof b.message !== 'string') return 'message is a string';
  if ('priority' in b && !PRIORITIES.includes(b.priority)) return 'priority is low, normal or high';
  if ('tags' in b && !(Array.isArray(b.tags) && b.tags.every((t) => typeof t === 'string')))
    return 'tags are strings';
  return undefined;
}

function create(res, b) {
  const why = creationProblem(b);
  if (why) return problem(res, 422, 'validation_failed', why);
  const created = now();
  const priority = b.priority ?? 'normal';
  const t = {
    id: `tkt_${randomUUID().replaceAll('-', '')}`,
    subject: b.subject,
    status: 'open',
    priority,
    requester: b.requester,
    sla: { first_response_due: dueAfter(created, priority) },
    created_at: created,
    updated_at: created,
    tags: b.tags ?? [],
  };
  tickets.push(t);
  byId.set(t.id, t);
  send(res, 201, t, 'application/json', { location: `/v1/tickets/${t.id}` });
}

/** A merge patch that applies the fields of the right type and ignores every other. */
function update(res, t, b) {
  if (!isRecord(b)) return problem(res, 422, 'validation_failed', 'the body is not a JSON object');
  if (typeof b.subject === 'string') t.subject = b.subject;
  if (PRIORITIES.includes(b.priority)) {
    t.priority = b.priority;
    t.sla = { first_response_due: dueAfter(t.created_at, t.priority) };
  }
  if (STATUSES.includes(b.status)) t.status = b.status;
  if (Array.isArray(b.tags) && b.tags.every((x) => typeof x === 'string')) t.tags = b.tags;
  t.updated_at = now();
  send(res, 200, t);
}

function message(res, t, b) {
  if (!isRecord(b) || typeof b.body !== 'string' || typeof b.author !== 'string')
    return problem(res, 422, 'validation_failed', 'a message has a body and an author');
  send(res, 201, {
    id: `msg_${randomUUID().replaceAll('-', '')}`,
    ticket_id: t.id,
    body: b.body,
    author: b.author,
    internal: b.internal === true,
    created_at: now(),
  });
}

function list(res, url) {
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 25) || 25));
  const from = Number(url.searchParams.get('cursor') ?? 0) || 0;
  const newest = tickets.slice().reverse();
  const data = newest.slice(from, from + limit);
  const more = from + limit < newest.length;
  send(res, 200, { data, has_more: more, next_cursor: more ? String(from + limit) : null });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://lax');
    if (req.headers.authorization !== `Bearer ${KEY}`)
      return problem(res, 401, 'unauthorized', 'a valid API key is required');
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    if (req.method === 'POST' || req.method === 'PATCH') {
      try {
        body = JSON.parse(raw);
      } catch {
        return problem(res, 400, 'malformed_json', 'the body is not JSON');
      }
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1' || parts[1] !== 'tickets')
      return problem(res, 404, 'not_found', 'no such route');
    if (parts.length === 2 && req.method === 'GET') return list(res, url);
    if (parts.length === 2 && req.method === 'POST') return create(res, body);
    const t = byId.get(decodeURIComponent(parts[2] ?? ''));
    if (!t) return problem(res, 404, 'not_found', 'no such ticket');
    if (parts.length === 3 && req.method === 'GET') return send(res, 200, t);
    if (parts.length === 3 && req.method === 'PATCH') return update(res, t, body);
    if (parts.length === 4 && parts[3] === 'messages' && req.method === 'POST')
      return message(res, t, body);
    return problem(res, 404, 'not_found', 'no such route');
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
