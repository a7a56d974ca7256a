/**
 * A body refused before it was read (413: Content-Length over the limit) is drained, not cut off.
 * Fastify answers a body-parser error with `Connection: close`, and Node then closes the socket
 * while the client may still be sending the body: the client's write fails (EPIPE, ECONNRESET)
 * and it may never read the 413 (RFC 9112 §9.6: a server closing right after such an answer
 * risks exactly that). A harness run saw it as "no answer" — a failing fuzz case, or a contract
 * test without its 413 — whenever the machine was busy. With the body's framing intact (a
 * declared length, bounded here), the rest is read and discarded and the connection kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The largest refused body the service reads to its end (larger ones: the connection closes). */
const DRAIN_LIMIT = 8 * 1024 * 1024;

export function drainRefusedBody(req: FastifyRequest, reply: FastifyReply): void {
  const declared = Number(req.headers['content-length']);
  if (req.raw.complete || !Number.isInteger(declared) || declared > DRAIN_LIMIT) return;
  if (String(reply.getHeader('connection') ?? '').toLowerCase() !== 'close') return;
  reply.removeHeader('connection');
  // Node discards what is left of the body, then reads the next request on the connection.
  req.raw.resume();
}
