/**
 * A proxy in front of a reference deployment that lets every write through, then answers a
 * valid-looking 422 problem+json: the work behind a rejection, which the API input fuzz must
 * catch (fuzz.api-input-nothing-half-done). The fuzz's own target ticket (its body names it
 * 'api input fuzz target') is created as asked, so the cases have a ticket to write to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardBuffered } from './forward-buffered.ts';

export interface RejectAfterWorkProxy {
  /** The proxy's base URL, on loopback. */
  url: string;
  close(): Promise<void>;
}

export async function startRejectAfterWorkProxy(upstream: string): Promise<RejectAfterWorkProxy> {
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const up = await forwardBuffered(upstream, req, chunks);
    const text = await up.body.text();
    const isTarget = Buffer.concat(chunks).includes('api input fuzz target');
    if (req.method !== 'GET' && up.statusCode < 300 && !isTarget) {
      const problem = {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        code: 'validation_failed',
        request_id: 'req_proxy',
      };
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify(problem));
      return;
    }
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? '') });
    res.end(text);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
