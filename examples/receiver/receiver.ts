/**
 * A webhook receiver for the Support Ticketing Service that you can copy into your own project.
 * Only `node:` modules; no framework, because frameworks' body parsers hand you re-serialised
 * JSON or decoded text, and the signature is over the raw bytes.
 *
 * Run: `WEBHOOK_SECRET=... PORT=8080 npx tsx examples/receiver/receiver.ts`
 *
 * Behaviour (the same strict policy as `core/signature/README.md`):
 * - POST only (405 otherwise); the body is read as raw bytes, at most `maxBodyBytes` (413 beyond);
 * - `X-Service-Signature: sha256=<hex>` and/or `service-signature: <hex>`, lowercase hex
 *   HMAC-SHA256 of the raw body; every signature header present must match exactly and at least
 *   one of an accepted form must be present;
 * - valid → 204 (after `onDelivery`, if given); otherwise 401 with an empty body and
 *   `Content-Length: 0`, so a probing client learns nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { pathToFileURL } from 'node:url';

export type SignatureForm = 'prefixed' | 'plain';

/** Options of {@link createWebhookHandler}. */
export interface ReceiverOptions {
  /** The endpoint's signing secret (string keys are used as UTF-8 bytes). Required, non-empty. */
  secret: string | Uint8Array;
  /** Header forms that may authenticate a delivery. Default: `['prefixed', 'plain']`. */
  forms?: readonly SignatureForm[];
  /** Largest body accepted, in bytes; larger → 413. Default: 5 MiB. */
  maxBodyBytes?: number;
  /** Called with the raw bytes of each authenticated delivery; a throw answers 500 (the service retries). Default: none. */
  onDelivery?: (body: Buffer, req: IncomingMessage) => void | Promise<void>;
}

const HEADERS: Record<SignatureForm, string> = {
  prefixed: 'x-service-signature',
  plain: 'service-signature',
};

/** True when `value` is byte-for-byte the canonical signature; never throws. */
function matches(form: SignatureForm, secret: string | Uint8Array, body: Buffer, value: unknown) {
  // Node joins a duplicated header into one "a, b" string; arrays come from other frameworks.
  if (typeof value !== 'string') return false;
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const expected = Buffer.from(form === 'prefixed' ? `sha256=${hex}` : hex, 'latin1');
  const given = Buffer.from(value, 'utf8');
  // timingSafeEqual throws on unequal lengths; the expected length is public, so check it first.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The verification policy, exported so it can be tested and reused on its own. */
export function isAuthentic(
  secret: string | Uint8Array,
  body: Buffer,
  headers: IncomingHttpHeaders,
  forms: readonly SignatureForm[] = ['prefixed', 'plain'],
): boolean {
  let authenticated = false;
  for (const form of ['prefixed', 'plain'] as const) {
    const value = headers[HEADERS[form]];
    if (value === undefined) continue;
    // A contradicting second header must not ride along with a valid one.
    if (!matches(form, secret, body, value)) return false;
    if (forms.includes(form)) authenticated = true;
  }
  return authenticated;
}

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Length': '0' });
  res.end();
}

/** A `node:http` request listener implementing the receiver. */
export function createWebhookHandler(options: ReceiverOptions): RequestListener {
  const { secret, forms = ['prefixed', 'plain'], maxBodyBytes = 5 * 1024 * 1024 } = options;
  if (!secret || secret.length === 0) throw new Error('receiver: a non-empty secret is required');
  return (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      answer(res, 405);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', async () => {
      if (size > maxBodyBytes) {
        res.setHeader('Connection', 'close');
        return answer(res, 413);
      }
      const body = Buffer.concat(chunks);
      if (!isAuthentic(secret, body, req.headers, forms)) return answer(res, 401);
      try {
        await options.onDelivery?.(body, req);
        answer(res, 204);
      } catch {
        answer(res, 500);
      }
    });
  };
}

/** An HTTP server running the receiver; call `listen` yourself. */
export function createReceiver(options: ReceiverOptions): Server {
  return createServer(createWebhookHandler(options));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('receiver: set WEBHOOK_SECRET\n');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  createReceiver({
    secret,
    onDelivery: (body) => {
      process.stdout.write(`delivery: ${body.length} bytes\n`);
    },
  }).listen(port, host, () => process.stdout.write(`receiver on http://${host}:${port}/\n`));
}
