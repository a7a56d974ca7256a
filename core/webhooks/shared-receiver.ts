/**
 * One capture receiver per run, shared by every Playwright worker. A deployment configured in a
 * dashboard points at one fixed address (HARNESS_WEBHOOK_LISTEN behind HARNESS_WEBHOOK_URL), so
 * workers cannot each bind it: Playwright's globalSetup starts the receiver once, and workers read
 * what it captured — and ask it to fail attempts — over a small control API on a separate
 * loopback port (never the public one, so a tunnel does not expose it). Routing is by path.
 *
 *   GET  /deliveries?from=N   deliveries N.. as JSON (raw bytes base64)
 *   POST /rules               {marker, attempts, status}: see FailRule
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaptureReceiver, CapturedDelivery, FailRule } from './capture-receiver.ts';

/** The receiver as a test sees it: in-process or across the control API. */
export interface ReceiverView {
  /** Where it listens (for diagnoses: "nothing reached 127.0.0.1:8099"). */
  listenUrl: string;
  all(): Promise<CapturedDelivery[]>;
  failFirst(rule: FailRule): Promise<void>;
}

export function localView(rx: CaptureReceiver): ReceiverView {
  return {
    listenUrl: rx.url ?? '(not listening)',
    all: async () => rx.deliveries,
    failFirst: async (rule) => rx.failFirst(rule),
  };
}

/** Serves the control API for `rx` on 127.0.0.1 (random port); returns its base URL. */
export async function startControl(rx: CaptureReceiver): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && url.pathname === '/deliveries') {
      const from = Number(url.searchParams.get('from') ?? 0) || 0;
      return send(
        200,
        rx.deliveries.slice(from).map((d) => ({ ...d, raw: d.raw.toString('base64') })),
      );
    }
    if (req.method === 'POST' && url.pathname === '/rules') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const r = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FailRule;
          if (typeof r.marker !== 'string' || !r.marker) throw new Error('marker');
          rx.failFirst({
            marker: r.marker,
            attempts: Number(r.attempts),
            status: Number(r.status),
          });
          send(204, {});
        } catch {
          send(400, { error: 'expected {marker, attempts, status}' });
        }
      });
      return;
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** A worker's view of the shared receiver, caching what it has already fetched. */
export function remoteView(controlUrl: string, listenUrl: string): ReceiverView {
  const cache: CapturedDelivery[] = [];
  return {
    listenUrl,
    async all() {
      // Polls overlap (one wait per endpoint, all at once): each stores the rows at the indexes
      // it asked for, so two that asked from the same place write the same rows once, never twice.
      const from = cache.length;
      // The run's own loopback server: bounded all the same, like every request of the run.
      const res = await fetch(`${controlUrl}/deliveries?from=${from}`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`capture receiver control API: ${res.status}`);
      const rows = (await res.json()) as Array<Omit<CapturedDelivery, 'raw'> & { raw: string }>;
      for (const [i, r] of rows.entries())
        cache[from + i] = { ...r, raw: Buffer.from(r.raw, 'base64') };
      return cache;
    },
    async failFirst(rule) {
      const res = await fetch(`${controlUrl}/rules`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 204) throw new Error(`capture receiver control API: ${res.status}`);
    },
  };
}
