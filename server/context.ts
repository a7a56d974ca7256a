/** What every route of the reference deployment shares: state, clock, faults, limiter, webhooks. */
import type { WebhookDispatcher } from './webhooks/dispatcher.ts';
import type { ServiceClock } from './clock.ts';
import type { FaultSet } from './faults.ts';
import type { Behaviour } from './readings/index.ts';
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
  /** What it does where the docs are silent: our assumptions, or the readings turned on (server/readings/). */
  behaviour: Readonly<Behaviour>;
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
