/**
 * Broken targets for the robustness tests: each kind is a loopback server that misbehaves one
 * way, and the preflight state(s) the harness should name for it. Call `closeBrokenTargets` in
 * `after`.
 */
import { type Server, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateSelfSignedCert } from '../../server/webhooks/index.ts';

const servers: Server[] = [];
export async function closeBrokenTargets(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
}

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

export async function brokenTarget(kind: string): Promise<string> {
  switch (kind) {
    case 'refused': {
      const s = createServer();
      const port = await listen(s);
      s.close();
      return `http://127.0.0.1:${port}`;
    }
    case 'hang':
      return `http://127.0.0.1:${await listen(createServer(() => {}))}`;
    case 'tls': {
      const { key, cert } = await generateSelfSignedCert();
      return `https://127.0.0.1:${await listen(createHttpsServer({ key, cert }, (_q, r) => r.end('{}')) as unknown as Server)}`;
    }
    case 'html':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx</body></html>')))}`;
    case 'garbage':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1, 2,')))}`;
    case '5xx':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"status":503}')))}`;
    case 'redirect':
      // Redirects to itself: a client that follows them loops; the harness must not.
      return `http://127.0.0.1:${await listen(createServer((q, r) => r.writeHead(302, { location: q.url ?? '/' }).end()))}`;
    case 'empty-200':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end()))}`;
    case 'enormous':
      // 64 MiB of JSON-looking bytes, streamed: bounded time and memory, then a verdict.
      return `http://127.0.0.1:${await listen(
        createServer((_q, r) => {
          r.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(1 << 20, 0x20);
          let left = 64;
          const pump = () => {
            while (left > 0) {
              left--;
              if (!r.write(chunk)) return void r.once('drain', pump);
            }
            r.end();
          };
          r.write('[');
          pump();
        }),
      )}`;
    case 'slowloris':
      // Headers at once, then one byte a second, forever.
      return `http://127.0.0.1:${await listen(
        createServer((_q, r) => {
          r.writeHead(200, { 'content-type': 'application/json' });
          const t = setInterval(() => r.write(' '), 1000);
          r.on('close', () => clearInterval(t));
        }),
      )}`;
    case 'bad-utf8':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]))))}`;
    default:
      throw new Error(kind);
  }
}

/** Preflight states accepted per kind (64 MiB may or may not arrive within the timeout). */
export const EXPECTED_PREFLIGHT: Record<string, string | string[]> = {
  refused: 'refused',
  hang: 'timeout',
  tls: 'tls',
  html: 'not-json',
  garbage: 'not-json',
  '5xx': 'server-error',
  redirect: 'not-json',
  'empty-200': 'not-json',
  enormous: ['not-json', 'timeout'],
  slowloris: 'timeout',
  'bad-utf8': 'not-json',
};
