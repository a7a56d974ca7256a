/** `startService(opts)`: builds the reference deployment and listens on 127.0.0.1 (port 0 = any free). */
import { type ServiceOptions, buildService } from './app.ts';
import type { ServiceContext } from './context.ts';
import type { Credentials } from './seed.ts';
import type { SeededTickets } from './seed-tickets.ts';

export interface RunningService {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  credentials: Credentials;
  ctx: ServiceContext;
  /** What `seedTickets` wrote (a long-lived deployment), if any. */
  seeded?: SeededTickets;
  close(): Promise<void>;
}

export async function startService(
  opts: ServiceOptions & { port?: number; host?: string } = {},
): Promise<RunningService> {
  const { app, ctx, credentials, seeded } = buildService(opts);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    credentials,
    ctx,
    ...(seeded ? { seeded } : {}),
    close: () => app.close(),
  };
}
