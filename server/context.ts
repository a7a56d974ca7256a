/** What every route of the reference deployment shares: state, clock, faults, limiter, webhooks. */
import type { WebhookDispatcher } from './webhooks/dispatcher.ts';
import type { ServiceClock } from './clock.ts';
import type { FaultSet } from './faults.ts';
import type { Limiter } from './rate-limit/types.ts';
import type { ApiKey, Store, Workspace } from './store.ts';

export interface ServiceContext {
  store: Store;
  clock: ServiceClock;
  faults: FaultSet;
  /** `jumped`: told of the admin clock's jumps (rate-limit/clock-jumps.ts); a test's own may lack it. */
  limiter: Limiter & { jumped?(ms: number): void };
  /** Per-address limiter config for requests without a valid key. */
  anonymousLimit: { ratePerMin: number; burst: number };
  dispatcher: WebhookDispatcher;
  /** PEM certificates trusted for HTTPS webhook deliveries (admin can add). */
  trustedCa: string[];
  adminToken: string;
  dashboardBaseUrl: string;
  /** The lax profile (server/lax.ts): validates only what the service docs state. */
  lax: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    svc: ServiceContext;
  }
  interface FastifyRequest {
    /** Set by the auth hook for /v1 requests with a valid key. */
    auth?: { key: ApiKey; workspace: Workspace };
  }
}
