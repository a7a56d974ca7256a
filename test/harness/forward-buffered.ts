/**
 * The forwarding half of the in-test proxies that stand in front of the reference deployment to
 * change some of its answers (a rejection after the work is done, a missing route): the request
 * as received, its body already read by the proxy (it looks at it first), sent on to the
 * deployment. Host and Connection are dropped: undici sets its own for the upstream.
 */
import type { IncomingMessage } from 'node:http';
import { type Dispatcher, request } from 'undici';

/** Sends `req` with the body `chunks` on to `upstream` (a base URL); the deployment's answer. */
export function forwardBuffered(
  upstream: string,
  req: IncomingMessage,
  chunks: Buffer[],
): Promise<Dispatcher.ResponseData> {
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.connection;
  return request(`${upstream}${req.url}`, {
    method: req.method as 'GET',
    headers: headers as Record<string, string>,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
}
