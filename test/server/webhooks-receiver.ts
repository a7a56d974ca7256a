/**
 * A loopback webhook receiver for the webhook tests: records the raw bytes and headers of every
 * request and answers with whatever the test's `respond` decides. Not a test file itself.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  /** Date.now() when the request body was complete. */
  at: number;
}

/** A status to answer with, or `hang` to never answer (until the receiver closes). */
export type Reply = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(
  respond: (req: Received, index: number) => Reply = () => 200,
  tls?: { key: string; cert: string },
): Promise<Receiver> {
  const received: Received[] = [];
  const handler = (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { raw: Buffer.concat(chunks), headers: req.headers, at: Date.now() };
      const index = received.push(r) - 1;
      const reply = respond(r, index);
      if (reply === 'hang') return;
      res.writeHead(reply, { 'Content-Type': 'text/plain' });
      res.end(reply >= 200 && reply < 300 ? 'ok' : 'no');
    });
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The value of a header that must appear once. */
export function header(r: Received, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(',') : v;
}

/** Mulberry32: a tiny seeded PRNG, so "fails 30 % of the time" is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
