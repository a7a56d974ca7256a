/**
 * The one HTTP layer of the fuzzers: HTTP/1.1 exchanges with full control of what goes on the
 * wire — header names keep their case, a header may repeat, the body goes with `Content-Length`
 * or chunked. `node:http` with a raw header array does exactly that, and parses the response for
 * us. The receiver fuzz sends through it directly; the delivery check and the input fuzz send
 * through the one client (core/http/client.ts) over it (`wireTransport`, http.ts).
 */
import { type IncomingMessage, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Transport } from '../../core/http/client.ts';

/** A request as sent; `notes` explain it in transcripts (what was spoiled, and how). */
export interface WireRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Header lines in order, names as sent. Host and framing headers are added by {@link send}. */
  headers: Array<[string, string]>;
  body: Uint8Array;
  /** `content-length` (default) or `chunked`, with the body split at these sizes. */
  framing: { kind: 'content-length' } | { kind: 'chunked'; chunkSizes: number[] };
  notes: string[];
}

export interface WireResponse {
  status: number;
  statusText: string;
  /** Raw header lines as received. */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Outcome of one exchange: a response, or why there was none (reset, timeout, refused). */
export type WireOutcome = { response: WireResponse } | { error: string };

/** The header lines actually sent, framing and Host included, for transcripts. */
export function sentHeaders(url: URL, req: WireRequest): Array<[string, string]> {
  const lines: Array<[string, string]> = [['Host', url.host], ...req.headers];
  if (req.framing.kind === 'chunked') lines.push(['Transfer-Encoding', 'chunked']);
  // A GET or DELETE without a body goes without one, as any client sends it.
  else if (req.body.length > 0 || req.method === 'POST' || req.method === 'PATCH')
    lines.push(['Content-Length', String(req.body.length)]);
  return lines;
}

/** A keep-alive connection pool for one run; `close()` when done. */
export function createClient(url: URL, timeoutMs: number) {
  const https = url.protocol === 'https:';
  if (!https && url.protocol !== 'http:')
    throw new Error(`receiver URL must be http(s): ${url.href}`);
  const agent = https
    ? new HttpsAgent({ keepAlive: true, maxSockets: 4 })
    : new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const doRequest = https ? httpsRequest : httpRequest;

  /**
   * A connection the peer closed while it sat idle in the pool can take the next request and
   * reset it before any answer (the keep-alive race Node's docs describe under
   * `request.reusedSocket`). That says nothing about the request, so it is sent once more on a
   * fresh connection; a peer that resets that one too has really dropped it.
   */
  const fresh = https ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });

  /** Sends `req` to `path` (default: the client URL's own path and query). */
  async function send(req: WireRequest, path = url.pathname + url.search): Promise<WireOutcome> {
    const first = await sendOn(agent, req, path);
    if (!('stale' in first)) return first;
    // A fresh connection is never a reused one, so it cannot come back stale.
    const again = await sendOn(fresh, req, path);
    return 'stale' in again ? { error: 'connection reset' } : again;
  }

  function sendOn(
    via: HttpAgent,
    req: WireRequest,
    path: string,
  ): Promise<WireOutcome | { stale: true }> {
    return new Promise((resolve) => {
      let settled = false;
      let deadline: NodeJS.Timeout | undefined;
      let answered = false;
      const done = (o: WireOutcome | { stale: true }) => {
        clearTimeout(deadline);
        if (!settled) {
          settled = true;
          resolve(o);
        }
      };
      const out = doRequest({
        agent: via,
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        method: req.method,
        path,
        headers: sentHeaders(url, req).flat(),
        timeout: timeoutMs,
      });
      // The whole exchange, not only each silence, is bounded: a drip-feeding peer cannot stall a run.
      deadline = setTimeout(
        () => out.destroy(new Error(`no response within ${timeoutMs} ms`)),
        timeoutMs,
      );
      out.on('timeout', () => {
        out.destroy(new Error(`no response within ${timeoutMs} ms`));
      });
      out.on('error', (err: NodeJS.ErrnoException) => {
        const race =
          out.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        done(race ? { stale: true } : { error: err.message });
      });
      out.on('response', (res: IncomingMessage) => {
        answered = true;
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', (err) => done({ error: err.message }));
        res.on('end', () => {
          const headers: Array<[string, string]> = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          done({
            response: {
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              headers,
              body: Buffer.concat(parts),
            },
          });
        });
      });
      if (req.framing.kind === 'chunked') {
        let at = 0;
        for (const size of req.framing.chunkSizes) {
          if (at >= req.body.length) break;
          const n = Math.max(1, size);
          out.write(req.body.subarray(at, at + n));
          at += n;
        }
        if (at < req.body.length) out.write(req.body.subarray(at));
      } else if (req.body.length > 0) {
        out.write(req.body);
      }
      out.end();
    });
  }

  return {
    send,
    close: () => {
      agent.destroy();
      fresh.destroy();
    },
  };
}

/** Header value by name, case-insensitive; `undefined` if absent, joined with ", " if repeated. */
export function responseHeader(res: WireResponse, name: string): string | undefined {
  const values = res.headers
    .filter(([n]) => n.toLowerCase() === name.toLowerCase())
    .map(([, v]) => v);
  return values.length === 0 ? undefined : values.join(', ');
}

/**
 * The wire client as a transport of the one client: the request's bytes as the caller gave them
 * (header case, no header added but Host and the framing), one keep-alive pool per run.
 */
export function wireTransport(url: URL, timeoutMs: number): Transport {
  const wire = createClient(url, timeoutMs);
  return {
    async send(req) {
      const o = await wire.send(
        {
          method: req.method as WireRequest['method'],
          headers: req.headers,
          body: req.body ?? new Uint8Array(0),
          framing: { kind: 'content-length' },
          notes: [],
        },
        req.url.pathname + req.url.search,
      );
      if ('error' in o) return { error: o.error };
      const headers: Record<string, string> = {};
      for (const [name, v] of o.response.headers) {
        const k = name.toLowerCase();
        headers[k] = k in headers ? `${headers[k]}, ${v}` : v;
      }
      return { status: o.response.status, headers, body: o.response.body };
    },
    close: () => wire.close(),
  };
}
