/**
 * Answers for requests that never reach a route: an unparsable request line or header block
 * (Node's `clientError`), an `Expect` other than 100-continue (Node's `checkExpectation`), a
 * path that does not percent-decode (Fastify's `frameworkErrors`). Node and Fastify answer these
 * with their own JSON and no rate-limit headers; the contract says every response carries the
 * three X-RateLimit headers and every error has the deployment's error body (U16), so these do too.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.ts';
import { errorAnswer, sendProblem } from './problem.ts';
import { rateHeaderValues, retryAfterValue, takeUnrouted } from './rate-limit-answer.ts';

export function newRequestId(): string {
  return `req_${randomBytes(8).toString('hex')}`;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The whole answer (rate-limited first, like any request) for a request Fastify never saw. */
function rawAnswer(
  ctx: ServiceContext,
  authorization: unknown,
  ip: string,
  status: number,
  code: string,
  detail: string,
): RawAnswer {
  const { limit, decision } = takeUnrouted(ctx, authorization, ip);
  const headers: Record<string, string> = {
    date: new Date(ctx.clock.now()).toUTCString(),
    ...rateHeaderValues(ctx, limit, decision),
  };
  if (!decision.allowed) {
    const retryAfter = retryAfterValue(ctx, decision);
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    status = 429;
    code = 'rate_limited';
    detail = 'Rate limit exceeded; retry after Retry-After seconds.';
  }
  const { type, body } = errorAnswer(ctx.behaviour.errorBody, status, code, detail, newRequestId());
  headers['content-type'] = type;
  if (ctx.faults.has('ratelimit-headers-missing-on-4xx')) {
    for (const h of Object.keys(headers)) if (h.startsWith('x-ratelimit-')) delete headers[h];
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status, headers, body };
}

/** Fastify `clientErrorHandler`: same statuses as Fastify's default (408, 431, else 400). */
export function answerClientError(ctx: ServiceContext, err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request was not received in time.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request line and headers exceed 16 KiB.']
        : [400, 'bad_request', 'The request is not valid HTTP/1.1.'];
  const ip = (socket as { remoteAddress?: string }).remoteAddress ?? 'unknown';
  // The header block did not parse, so no key can be trusted: the per-address bucket pays.
  const a = rawAnswer(ctx, undefined, ip, status, code, detail);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = Object.entries(a.headers).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(
    `HTTP/1.1 ${a.status} ${STATUS_CODES[a.status]}\r\n${head.join('')}connection: close\r\n\r\n${a.body}`,
  );
}

/** Node `checkExpectation`: 417 for any Expect but 100-continue (RFC 9110 §10.1.1). */
export function answerExpectation(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse) {
  const a = rawAnswer(
    ctx,
    req.headers.authorization,
    req.socket.remoteAddress ?? 'unknown',
    417,
    'expectation_failed',
    'Only Expect: 100-continue is supported.',
  );
  res.writeHead(a.status, a.headers);
  res.end(a.body);
}

/**
 * A 4xx for a request Fastify parsed but no route may see, with the rate-limit headers first:
 * under the rate limit the 4xx, over it the 429.
 */
export function refuseBeforeRoute(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
): FastifyReply {
  const ctx = reply.server.svc;
  const { limit, decision } = takeUnrouted(ctx, req.headers.authorization, req.ip);
  reply.header('date', new Date(ctx.clock.now()).toUTCString());
  reply.headers(rateHeaderValues(ctx, limit, decision));
  if (!decision.allowed) {
    const retryAfter = retryAfterValue(ctx, decision);
    if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
    return sendProblem(reply, 429, 'rate_limited', 'Rate limit exceeded.');
  }
  return sendProblem(reply, status, code, detail);
}

/** Fastify `frameworkErrors`: a path that does not percent-decode, or a too long parameter. */
export function answerFrameworkError(
  err: { code?: string },
  req: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // An id too long to be one this API issued is simply unknown (U21: 404).
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return refuseBeforeRoute(req, reply, 404, 'not_found', 'No resource with this id.');
  }
  return refuseBeforeRoute(
    req,
    reply,
    400,
    'bad_url',
    'The path is not valid percent-encoded UTF-8.',
  );
}
