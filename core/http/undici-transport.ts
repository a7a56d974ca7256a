/**
 * The undici transport of the one client (client.ts): no redirect followed (a 3xx is seen as
 * such), the whole exchange bounded by the request's time limit, and a failure kept with what
 * was thrown, so the preflight can name its cause (refused, DNS, TLS, …).
 */
import { Client, type Dispatcher, request } from 'undici';
import { MAX_BODY_BYTES, type Transport } from './client.ts';

export interface UndiciTransportOptions {
  /**
   * Send the request target in absolute form (`GET http://host/v1/… HTTP/1.1`, RFC 9112 §3.2.2)
   * instead of origin form: a server must accept it, and a service that takes only origin-form
   * targets for its own may answer such a request from the wrong bucket. One connection per request, closed after it.
   */
  absoluteForm?: boolean;
}

export function undiciTransport(o: UndiciTransportOptions = {}): Transport {
  return {
    async send(req) {
      let client: Client | undefined;
      try {
        const options = {
          method: req.method as 'GET',
          headers: req.headers.flat(),
          ...(req.body === undefined ? {} : { body: req.body }),
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal: AbortSignal.timeout(req.timeoutMs),
        };
        let res: Dispatcher.ResponseData;
        if (o.absoluteForm) {
          client = new Client(req.url.origin, { connect: { timeout: req.timeoutMs } });
          // undici writes `path` as the request target as given: here the whole URL.
          res = await client.request({ ...options, path: req.url.href });
        } else res = await request(req.url, options);
        return await answerOf(res);
      } catch (e) {
        // undici says "fetch failed"-like things at the top; the cause names the refusal.
        const err = e as Error & { cause?: Error };
        return { error: err.cause?.message ?? err.message, thrown: e };
      } finally {
        await client?.destroy().catch(() => undefined);
      }
    },
  };
}

async function answerOf(res: Dispatcher.ResponseData) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  // A body announced as larger than any answer of this API is not read into memory.
  if (Number(headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    await res.body.dump();
    return { status: res.statusCode, headers, body: Buffer.alloc(0) };
  }
  return { status: res.statusCode, headers, body: Buffer.from(await res.body.arrayBuffer()) };
}
