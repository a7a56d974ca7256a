/**
 * Authentication, scopes and rate limiting of every /v1 request, plus the headers every response
 * carries. Runs in `onRequest`, before the body is read, so a 401/403/429 never costs a parse.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.ts';
import { enforcedLimit } from './plans.ts';
import { sendProblem } from './problem.ts';
import type { Decision } from './rate-limit/types.ts';
import { bearer, bentRateHeaders, rateHeaderValues, retryAfterValue } from './rate-limit-answer.ts';
import type { ApiKey } from './store.ts';
import { ticketJson } from './represent.ts';
import { refuseBeforeRoute } from './transport-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `write` operations need a full-access key (x-scope in the spec). */
    scope?: 'read' | 'write';
  }
}

function tooMany(reply: FastifyReply, ctx: ServiceContext, d: Decision): FastifyReply {
  const retryAfter = retryAfterValue(ctx, d);
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  return sendProblem(
    reply,
    429,
    'rate_limited',
    'Rate limit exceeded; retry after Retry-After seconds.',
  );
}

/** The first seeded workspace's full key: what the auth faults fall back to. */
function fallbackKey(ctx: ServiceContext): ApiKey | undefined {
  for (const k of ctx.store.keys.values()) if (k.scope === 'full' && !k.revoked) return k;
  return undefined;
}

function resolveKey(
  ctx: ServiceContext,
  token: string | undefined,
): ApiKey | 'missing' | 'invalid' {
  if (token === undefined) {
    return ctx.faults.has('missing-key-accepted') ? (fallbackKey(ctx) ?? 'missing') : 'missing';
  }
  const k = token ? ctx.store.keysBySecret.get(token) : undefined;
  if (k && !k.revoked) {
    // FAULT rotated-new-key-inactive: a key some rotation issued is never activated.
    const issuedByRotation = () =>
      [...ctx.store.keysBySecret.values()].some((o) => o.rotatedTo === token);
    if (ctx.faults.has('rotated-new-key-inactive') && issuedByRotation()) return 'invalid';
    return k;
  }
  if (k?.rotatedTo && ctx.faults.has('rotated-key-works')) {
    return ctx.store.keysBySecret.get(k.rotatedTo) ?? 'invalid';
  }
  // FAULT invalid-key-accepted: a token it never issued; a known one that was revoked or
  // rotated is still refused (that is rotated-key-works, a deviation of its own).
  if (token && !k && ctx.faults.has('invalid-key-accepted')) return fallbackKey(ctx) ?? 'invalid';
  // FAULT malformed-authorization-accepted: an Authorization that is no bearer token at all.
  if (token === '' && ctx.faults.has('malformed-authorization-accepted'))
    return fallbackKey(ctx) ?? 'invalid';
  return 'invalid';
}

/** The decoded path of the request target (origin- or absolute-form), as the router sees it. */
function requestPath(req: FastifyRequest): string {
  const raw = (req.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/').split('?')[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Whether the target of a request no route matched is under /v1: the bare /v1 and /v1/…, in
 * origin or absolute form, decoded as the router decodes.
 */
function underApi(req: FastifyRequest, faults: ServiceContext['faults']): boolean {
  // FAULT absolute-form-outside-api: the target read as its raw text, not cut to its path.
  const absolute = !req.url.startsWith('/');
  const path = absolute && faults.has('absolute-form-outside-api') ? req.url : requestPath(req);
  // FAULT bare-prefix-outside-api: only /v1/… is the API's, not the bare /v1.
  return (faults.has('bare-prefix-outside-api') ? /^\/v1\// : /^\/v1(\/|$)/).test(path);
}

export function installGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    const ctx = app.svc;
    reply.header('date', new Date(ctx.clock.now()).toUTCString());
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400.
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      return refuseBeforeRoute(req, reply, 400, 'bad_request', 'An HTTP/1.1 request needs Host.');
    }
    // Decide by the route the router matched, never by the raw URL: the router decodes
    // (`/%76%31/tickets` is /v1/tickets) and accepts absolute-form targets, so a test on
    // `req.url` let such requests reach a /v1 handler unauthenticated.
    const route = req.routeOptions.url;
    if (route?.startsWith('/admin')) return; // the dashboard stand-in is not part of v1
    const now = ctx.clock.now();
    if (route === undefined ? !underApi(req, ctx.faults) : !route.startsWith('/v1')) {
      // Outside /v1 there is nothing to authenticate; the 404 still carries the headers.
      const d = ctx.limiter.take(`anon:${req.ip}`, ctx.anonymousLimit, now);
      reply.headers(rateHeaderValues(ctx, ctx.anonymousLimit.ratePerMin, d));
      return d.allowed ? undefined : tooMany(reply, ctx, d);
    }
    // Node keeps the first of several Authorization headers; two credentials are ambiguous,
    // so such a request authenticates as nobody (RFC 6750 invalid_request → 401).
    const authHeaders = req.raw.rawHeaders.filter(
      (h, i) => i % 2 === 0 && h.toLowerCase() === 'authorization',
    );
    const resolved =
      authHeaders.length > 1 ? 'invalid' : resolveKey(ctx, bearer(req.headers.authorization));
    if (typeof resolved === 'string') {
      const d = ctx.limiter.take(`anon:${req.ip}`, ctx.anonymousLimit, now);
      reply.headers(rateHeaderValues(ctx, ctx.anonymousLimit.ratePerMin, d));
      if (!d.allowed) return tooMany(reply, ctx, d);
      // FAULT keyless-429: the limiter stands in front of authentication, its keyless bucket
      // empty: every request without a valid key is refused, as a limiter refuses (Remaining 0).
      if (ctx.faults.has('keyless-429')) {
        const empty = { ...d, allowed: false, remaining: 0, retryAfterMs: 1000 };
        reply.headers(rateHeaderValues(ctx, ctx.anonymousLimit.ratePerMin, empty));
        return tooMany(reply, ctx, empty);
      }
      // FAULT get-ticket-no-auth: one route without the guard when no key is sent at all (the
      // handler then finds the ticket in any workspace, routes/tickets.ts findTicket).
      if (
        resolved === 'missing' &&
        ctx.faults.has('get-ticket-no-auth') &&
        req.method === 'GET' &&
        route === '/v1/tickets/:ticket_id'
      )
        return;
      const missing = resolved === 'missing';
      // The refusal's status and challenge are the deployment's reading of U17 and U18 (401 with
      // WWW-Authenticate as we assume; another reading answers 403, or 401 without a challenge).
      if (ctx.behaviour.wwwAuthenticate) {
        reply.header(
          'www-authenticate',
          missing ? 'Bearer realm="v1"' : 'Bearer realm="v1", error="invalid_token"',
        );
      }
      return sendProblem(
        reply,
        missing ? ctx.behaviour.missingKeyStatus : ctx.behaviour.invalidKeyStatus,
        missing ? 'missing_api_key' : 'invalid_api_key',
        missing
          ? 'Send a workspace API key as Authorization: Bearer <key>.'
          : 'The API key is not valid (unknown, revoked or rotated).',
      );
    }
    const workspace = ctx.store.workspaces.get(resolved.workspaceId)!;
    const bucket = ctx.faults.has('global-bucket')
      ? ''
      : ctx.behaviour.limitScope === 'workspace'
        ? `ws:${workspace.id}`
        : `key:${resolved.id}`;
    const d = ctx.limiter.take(bucket, enforcedLimit(workspace, ctx.faults), now);
    const advertised =
      ctx.faults.has('ratelimit-limit-is-burst') ||
      (ctx.faults.has('ratelimit-limit-on-writes') && req.method !== 'GET')
        ? workspace.burst
        : ctx.faults.has('team-limit-header-600') && workspace.plan === 'team'
          ? 600
          : workspace.ratePerMin;
    reply.headers(rateHeaderValues(ctx, advertised, d));
    if (!d.allowed) return tooMany(reply, ctx, d);
    req.auth = { key: resolved, workspace };
    const scope = req.routeOptions.config?.scope;
    const refused =
      resolved.scope !== 'full' &&
      ((scope === 'write' && !ctx.faults.has('readonly-can-write')) ||
        ctx.faults.has('readonly-cannot-read'));
    if (refused) {
      return sendProblem(
        reply,
        ctx.behaviour.readOnlyWriteStatus,
        ctx.behaviour.readOnlyWriteCode,
        'This operation needs a full-access key; the key is read-only.',
      );
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const bent =
      req.auth && reply.statusCode >= 200 && reply.statusCode < 300
        ? bentRateHeaders(app.svc, req.auth.workspace)
        : undefined;
    if (bent) reply.headers(bent);
    // FAULT 401-with-data: a refusal for the key (nobody authenticated) carries, as an extension
    // member of its problem, the latest tickets the service stored, whichever workspace's.
    if (
      app.svc.faults.has('401-with-data') &&
      !req.auth &&
      (reply.statusCode === 401 || reply.statusCode === 403) &&
      typeof payload === 'string'
    )
      return withLatestTickets(app.svc, payload);
    // FAULT json-as-text-plain: the API's JSON successes labelled as plain text (the body unchanged).
    if (
      app.svc.faults.has('json-as-text-plain') &&
      reply.statusCode >= 200 &&
      reply.statusCode < 300 &&
      !req.routeOptions.url?.startsWith('/admin') &&
      /^application\/json\b/i.test(String(reply.getHeader('content-type') ?? ''))
    )
      reply.header('content-type', 'text/plain; charset=utf-8');
    if (
      reply.statusCode >= 400 &&
      reply.statusCode < 500 &&
      app.svc.faults.has('ratelimit-headers-missing-on-4xx')
    ) {
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      reply.removeHeader('x-ratelimit-reset');
    }
    return payload;
  });
}

/** A problem body with the latest three tickets of the store added (the 401-with-data fault). */
function withLatestTickets(ctx: ServiceContext, payload: string): string {
  const tickets = ctx.store
    .ticketsInOrder()
    .slice(-3)
    .map((t) => ticketJson(t, ctx));
  try {
    return JSON.stringify({ ...JSON.parse(payload), tickets });
  } catch {
    return payload;
  }
}
