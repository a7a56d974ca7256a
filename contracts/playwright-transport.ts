/**
 * Playwright's APIRequestContext as a transport of the one client (core/http/client.ts): the
 * contract suite's requests go through the `request` fixture, so they show in Playwright's
 * traces and use its settings (extra headers, proxy, TLS).
 */
import type { APIRequestContext } from '@playwright/test';
import { MAX_BODY_BYTES, type Transport } from '../core/http/client.ts';

export function playwrightTransport(request: APIRequestContext): Transport {
  return {
    async send(req) {
      try {
        const res = await request.fetch(req.url.toString(), {
          method: req.method,
          headers: Object.fromEntries(req.headers),
          // Raw bytes: a string would be re-encoded as a JSON string under a JSON content type.
          data: req.body,
          timeout: req.timeoutMs,
          failOnStatusCode: false,
          maxRedirects: 0,
        });
        const headers = res.headers();
        // A body announced as larger than any answer of this API is not read into memory: the
        // checks see an empty, non-JSON body and say so.
        if (Number(headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
          await res.dispose();
          return { status: res.status(), headers, body: Buffer.alloc(0) };
        }
        return { status: res.status(), headers, body: await res.body() };
      } catch (e) {
        return { error: (e as Error).message, thrown: e };
      }
    },
  };
}
