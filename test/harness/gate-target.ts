/**
 * A misbehaving target for the gate tests, run as its own process (`node --import tsx
 * test/harness/gate-target.ts KIND [options]`) on a random loopback port; prints
 * `listening <url>` once it accepts connections.
 *
 *   html                      200 text/html to everything (a web server, not the API)
 *   silent                    accepts connections and never answers
 *   tls-proxy --upstream URL --cert-out FILE
 *                             HTTPS with a self-signed certificate (written to FILE) in front of URL
 *   proxy --upstream URL [--die-on FILE] [--silent-after N] [--delay-ms N]
 *                             HTTP in front of URL; once FILE exists the next request kills it
 *                             (connection dropped, process gone); after N requests it goes silent;
 *                             every request waits N ms before it is forwarded (a slow staging)
 *   gateway --upstream URL    HTTP in front of URL that answers two spellings of an API path
 *                             itself, without the service's headers, as gateways do: the bare
 *                             /v1 with a 301 to /v1/ (nginx), an absolute-form target with a 400
 */
import { existsSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { generateSelfSignedCert } from '../../core/webhooks/self-signed.ts';
import { pipeTo } from './pipe-to.ts';

const [kind, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    upstream: { type: 'string' },
    'cert-out': { type: 'string' },
    'die-on': { type: 'string' },
    'silent-after': { type: 'string' },
    'delay-ms': { type: 'string' },
  },
});

/** Forwards one request to the upstream, streaming both ways, as addressed to the upstream. */
function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  pipeTo(upstream, req, res, { ...req.headers, host: upstream.host });
}

function proxyHandler(): (req: IncomingMessage, res: ServerResponse) => void {
  const upstream = new URL(values.upstream ?? '');
  const silentAfter = values['silent-after'] ? Number(values['silent-after']) : Infinity;
  const delayMs = Number(values['delay-ms'] ?? 0);
  let seen = 0;
  return (req, res) => {
    if (values['die-on'] && existsSync(values['die-on'])) {
      // The crash of a proxy on one input: the connection drops, nothing listens any more.
      req.socket.destroy();
      process.exit(1);
    }
    if (++seen > silentAfter) return; // accepted, never answered
    if (delayMs > 0) setTimeout(() => forward(upstream, req, res), delayMs);
    else forward(upstream, req, res);
  };
}

async function server(): Promise<Server> {
  switch (kind) {
    case 'html':
      return createServer((_q, r) =>
        r
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>Welcome to nginx!</body></html>'),
      );
    case 'silent':
      return createServer(() => {});
    case 'proxy':
      return createServer(proxyHandler());
    case 'gateway': {
      const pass = proxyHandler();
      return createServer((req, res) => {
        if (req.url === '/v1')
          return res
            .writeHead(301, { location: '/v1/', 'content-type': 'text/html' })
            .end('<html>301</html>');
        if (!req.url?.startsWith('/'))
          return res.writeHead(400, { 'content-type': 'text/html' }).end('<html>400</html>');
        pass(req, res);
      });
    }
    case 'tls-proxy': {
      const { key, cert } = await generateSelfSignedCert();
      if (values['cert-out']) writeFileSync(values['cert-out'], cert);
      return createHttpsServer({ key, cert }, proxyHandler()) as unknown as Server;
    }
    default:
      throw new Error(`unknown kind '${kind}'`);
  }
}

const s = await server();
s.listen(0, '127.0.0.1', () => {
  const { port } = s.address() as AddressInfo;
  process.stdout.write(
    `listening ${kind === 'tls-proxy' ? 'https' : 'http'}://127.0.0.1:${port}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
