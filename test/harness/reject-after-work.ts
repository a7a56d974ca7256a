/**
 * A proxy in front of a reference deployment that lets every write through, then answers a
 * valid-looking 422 problem+json: the work behind a rejection, which the API input fuzz must
 * catch (fuzz.api-input-nothing-half-done). The fuzz's own target ticket (its body names it
 * 'api input fuzz target') is created as asked, so the cases have a ticket to write to.
 */
import { createServer, type Server } from 'node:http';
import { forwardBuffered } from './forward-buffered.ts';
import { type Listening, listenLoopback } from './listen-loopback.ts';

export async function startRejectAfterWorkProxy(upstream: string): Promise<Listening> {
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
  return listenLoopback(proxy);
}
