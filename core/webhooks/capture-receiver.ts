/**
 * The capture receiver: a loopback HTTP(S) server that records every webhook delivery exactly
 * as received (raw bytes, headers) and answers with a programmable status, so tests can check
 * signatures over the received bytes, event selection, payloads and retries.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../http/exchange.ts';

export interface CapturedDelivery {
  receivedAt: number;
  method: string;
  path: string;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  raw: Buffer;
  /** The status the receiver answered. */
  answered: number;
}

export interface CaptureReceiverOptions {
  /** PEM key and certificate: serve HTTPS instead of HTTP. */
  tls?: { key: string; cert: string };
  /** Status to answer for a delivery; default 204. Called per delivery (retries included). */
  respond?: (d: Omit<CapturedDelivery, 'answered'>) => number;
}

/**
 * "Answer `status` to the first `attempts` attempts of each delivery whose raw body contains
 * `marker`" (attempts counted per X-Service-Delivery id, else per body). Declarative rather than
 * a callback so it can cross from a Playwright worker to the shared receiver (see shared-receiver).
 */
export interface FailRule {
  marker: string;
  attempts: number;
  status: number;
}

export class CaptureReceiver {
  readonly deliveries: CapturedDelivery[] = [];
  private rules: FailRule[] = [];
  private attemptsSeen = new Map<string, number>();
  private listenUrl?: string;
  private server?: Server;
  private waiters: Array<() => void> = [];
  respond: NonNullable<CaptureReceiverOptions['respond']>;

  constructor(private readonly opts: CaptureReceiverOptions = {}) {
    this.respond = opts.respond ?? (() => 204);
  }

  /** Adds a fail-first rule (applies to deliveries received from now on). */
  failFirst(rule: FailRule): void {
    this.rules.push(rule);
  }

  private ruleStatus(d: Omit<CapturedDelivery, 'answered'>): number | undefined {
    const body = d.raw.toString('utf8');
    for (const r of this.rules) {
      if (!body.includes(r.marker)) continue;
      const key = `${r.marker}\u0000${d.headers['x-service-delivery'] ?? body}`;
      const n = (this.attemptsSeen.get(key) ?? 0) + 1;
      this.attemptsSeen.set(key, n);
      return n <= r.attempts ? r.status : undefined;
    }
    return undefined;
  }

  /** The address it listens on, e.g. http://127.0.0.1:41234 (undefined before start). */
  get url(): string | undefined {
    return this.listenUrl;
  }

  async start(host = '127.0.0.1', port = 0): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const k = req.rawHeaders[i]!.toLowerCase();
          const v = req.rawHeaders[i + 1]!;
          headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
        }
        const d = {
          receivedAt: Date.now(),
          method: req.method ?? '',
          path: req.url ?? '',
          headers,
          raw: Buffer.concat(chunks),
        };
        let answered = 500;
        try {
          answered = this.ruleStatus(d) ?? this.respond(d);
        } catch {
          answered = 500;
        }
        this.deliveries.push({ ...d, answered });
        res.writeHead(answered, { 'content-length': '0' }).end();
        const w = this.waiters;
        this.waiters = [];
        for (const f of w) f();
      });
    };
    this.server = this.opts.tls ? createHttpsServer(this.opts.tls, handler) : createServer(handler);
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = (server.address() as AddressInfo).port;
    const h = host.includes(':') ? `[${host}]` : host;
    this.listenUrl = `${this.opts.tls ? 'https' : 'http'}://${h}:${bound}`;
    return this.listenUrl;
  }

  /** Resolves once `pred` holds over the captured deliveries, or rejects after `timeoutMs`. */
  async waitFor(
    pred: (all: CapturedDelivery[]) => boolean,
    timeoutMs = 5000,
  ): Promise<CapturedDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.deliveries)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `capture receiver: condition not met within ${timeoutMs} ms (${this.deliveries.length} deliveries)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.deliveries;
  }

  /** Deliveries whose path starts with `prefix` (one receiver serves several endpoints by path). */
  at(prefix: string): CapturedDelivery[] {
    return this.deliveries.filter((d) => d.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections?.();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/**
 * The delivery as the checks' exchange: the request the service sent (to `url`, default its
 * path), the receiver's answer.
 */
export function deliveryAsExchange(d: CapturedDelivery, url = d.path): Exchange {
  return {
    request: {
      method: d.method,
      url,
      headers: d.headers,
      body: d.raw.toString('utf8').slice(0, 2000),
    },
    response: { status: d.answered, headers: {}, bodyText: '' },
    durationMs: 0,
  };
}

/** Parsed JSON of a delivery, or undefined. */
export function deliveryJson(d: CapturedDelivery): any {
  try {
    return JSON.parse(d.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
