/**
 * The undici transport of the one client (client.ts): no redirect followed (a 3xx is seen as
 * such), the whole exchange bounded by the request's time limit, and a failure kept with what
 * was thrown, so the preflight can name its cause (refused, DNS, TLS, …).
 */
import { request } from 'undici';
import { MAX_BODY_BYTES, type Transport } from './client.ts';

export function undiciTransport(): Transport {
  return {
    async send(req) {
      try {
        const res = await request(req.url, {
          method: req.method as 'GET',
          headers: req.headers.flat(),
          ...(req.body === undefined ? {} : { body: req.body }),
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal: AbortSignal.timeout(req.timeoutMs),
        });
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        // A body announced as larger than any answer of this API is not read into memory.
        if (Number(headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
          await res.body.dump();
          return { status: res.statusCode, headers, body: Buffer.alloc(0) };
        }
        return { status: res.statusCode, headers, body: Buffer.from(await res.body.arrayBuffer()) };
      } catch (e) {
        // undici says "fetch failed"-like things at the top; the cause names the refusal.
        const err = e as Error & { cause?: Error };
        return { error: err.cause?.message ?? err.message, thrown: e };
      }
    },
  };
}
