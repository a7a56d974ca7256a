/**
 * The delivery check's options and its result, JSON-serialisable as the run report stores it.
 */
import type { EndpointForm, SignatureForm } from '../../core/signature/index.ts';
import type { AdminClient } from '../../core/target/admin-client.ts';
import type { DashboardEndpoint } from '../../core/webhooks/endpoints-file.ts';

/** Options of `runDeliveryCheck` (delivery-check.ts). */
export interface DeliveryCheckOptions {
  /** The deployment's API base URL (no trailing `/v1`). */
  baseUrl: string;
  /** A full-access API key of the workspace the endpoints are registered for. */
  apiKey: string;
  /**
   * The deployment's admin surface (core/target/admin-client.ts), to register endpoints and
   * flush deliveries. Not needed with `endpoints`.
   */
  admin?: AdminClient;
  /**
   * Endpoints already set up in the deployment's dashboard, under `receiverPublicUrl` (required
   * with them): nothing is registered, the receiver listens where they point.
   */
  endpoints?: readonly ConfiguredEndpoint[];
  /** The key's workspace; default: looked up with `POST /admin/keys/lookup`. */
  workspaceId?: string;
  /** Scenarios to run (fast-check `numRuns`, shrinking not counted; 0: the hostile example alone). Default 25. */
  numRuns?: number;
  /** Seed; default `FC_SEED` or the harness default. */
  seed?: number;
  /** Wall-clock budget of the property, shrinking included, in seconds. Default 60. */
  maxSeconds?: number;
  /** Endpoint forms to register. Default all three: `prefixed`, `plain`, `both`. */
  forms?: readonly EndpointForm[];
  /** How long to wait for the deliveries of one scenario. Default 10 000 ms. */
  deliveryTimeoutMs?: number;
  /** Interface the capture receiver listens on. Default `127.0.0.1`. */
  receiverHost?: string;
  /** Port it listens on (dashboard endpoints point at a fixed one). Default: any free port. */
  receiverPort?: number;
  /**
   * Base URL under which the deployment reaches the capture receiver, when it is not the
   * listening address (a tunnel, a container network). Default: the listening address.
   */
  receiverPublicUrl?: string;
  /** Serve the capture receiver over HTTPS with this key and certificate. */
  receiverTls?: { key: string; cert: string };
}

/**
 * An endpoint configured in a dashboard (core/webhooks/endpoints-file.ts, secret attached); the
 * variable the secret was read from, as repros name it, may be unknown.
 */
export type ConfiguredEndpoint = Omit<DashboardEndpoint, 'secretEnv'> & { secretEnv?: string };

export interface FormTally {
  /** Deliveries captured at the endpoint (of this form, or at this path for dashboard ones). */
  deliveries: number;
  /** Deliveries with every problem-free signature header and a valid payload. */
  ok: number;
  failed: number;
}

export interface DeliveryFailure {
  /** The check of its first documented problem (webhook.signature-valid, webhook.payload-schema, …). */
  check?: string;
  endpointForm: EndpointForm;
  /** The endpoint's path (dashboard endpoints). */
  endpoint?: string;
  event?: string;
  deliveryId?: string;
  problems: string[];
  /** The delivery as received, secrets and signature values redacted. */
  transcript: string;
  /** Shell lines replaying it, signed in the shell with the endpoint's secret variable. */
  repro: string;
}

/** An assumed rule some deliveries did not follow: a warning, failing only a strict run. */
export interface DeliveryMismatch {
  check: string;
  /** Deliveries that broke it. */
  deliveries: number;
  /** The first one's problem, and where it went. */
  first: string;
  event?: string;
  endpoint: string;
  /** The first one as received, secrets and signature values redacted. */
  transcript: string;
  /** Shell lines replaying it, signed in the shell with the endpoint's secret variable. */
  repro: string;
}

/** The minimal failing scenario, when the property failed. */
export interface Counterexample {
  reason: string;
  /** The ticket content of the scenario (redacted). */
  input: unknown;
  transcript: string;
  /** Shell lines replaying the wrong delivery, signed with the endpoint's secret variable. */
  repro?: string;
  /**
   * The registered check the scenario broke before any delivery, when it is not a delivery's:
   * `exchange.no-5xx` for an API request of the scenario answered with a 5xx.
   */
  check?: string;
}

export interface DeliveryCheckResult {
  name: 'webhook-delivery-check';
  passed: boolean;
  seed: number;
  /** Scenarios run (shrinking excluded). */
  numRuns: number;
  shrinks: number;
  interrupted?: boolean;
  durationMs: number;
  /** API and admin requests sent. */
  requests: number;
  /** Deliveries captured in total. */
  deliveries: number;
  /** Signature headers that verified over the received bytes, per header form. */
  verified: Record<SignatureForm, number>;
  /** Signature headers that were present (or promised) and did not verify, per header form. */
  rejected: Record<SignatureForm, number>;
  /** Per endpoint: by form (registered ones) or by path (dashboard ones). */
  endpoints: Record<string, FormTally>;
  /** Deliveries per event name. */
  events: Record<string, number>;
  /** Failing deliveries (first 20), each with its transcript. */
  failures: DeliveryFailure[];
  /** Total failing deliveries (may exceed `failures.length`). */
  failedDeliveries: number;
  /** Assumed rules broken (U13 payload extras, U15 header forms …), per check: warnings. */
  assumptionMismatches: DeliveryMismatch[];
  counterexample?: Counterexample;
  /**
   * Why the scenarios stopped early: the API key's rate budget was spent (rate-budget.ts). The
   * deliveries that arrived are still verified; no scenario is failed for an answer not got.
   */
  inconclusive?: string;
}
