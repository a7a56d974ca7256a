/**
 * The forwarding step of the pass-through test proxies (gate-target.ts's proxy kinds, the
 * counting proxy of rule-matrix-served, the recording one of read-only): a request sent on to the
 * upstream as it comes and the answer streamed back, both ways without buffering; an upstream that
 * fails drops the client's connection, as a proxy in front of a dead service does.
 */
import {
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
  request,
} from 'node:http';

/** Forwards `req` to `upstream` (its host and port) with `headers` (default: as received). */
export function pipeTo(
  upstream: URL,
  req: IncomingMessage,
  res: ServerResponse,
  headers: OutgoingHttpHeaders = req.headers,
): void {
  const up = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (ans) => {
      res.writeHead(ans.statusCode ?? 502, ans.headers);
      ans.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
}
