/**
 * The data model of outbound webhooks in the reference deployment: endpoints set up in the
 * dashboard stand-in (U11), deliveries with their attempt log, and the switches that make the
 * dispatcher deviate from the contract on purpose (the fault catalogue).
 */

import type { DeliveryForm } from '../../core/signature/forms.ts';
import type { WebhookBehaviour } from '../readings/webhooks.ts';

export interface WebhookEndpoint {
  id: string;
  workspaceId: string;
  /** `http:` or `https:` URL receiving the POSTs. */
  url: string;
  /** Exactly these events are delivered (docs, "Delivery rules" 2). */
  events: string[];
  /** Signing secret; without one (or with an empty one) no signature header is sent. */
  secret?: string;
  /** Which signature header(s) it receives (U15; core/signature/forms.ts). */
  form: DeliveryForm;
  /** A PEM certificate its HTTPS URL is trusted by (a receiver with a certificate of its own). */
  ca?: string;
  /** ISO 8601 UTC, from the service clock. */
  createdAt: string;
}

export interface DeliveryAttempt {
  /** ISO 8601 UTC start of the attempt, from the service clock. */
  at: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Timeout, connection or TLS error, when no response arrived (never contains the secret). */
  error?: string;
  /** Wall time of the attempt, measured on the monotonic clock (not the injectable one). */
  durationMs: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'gone';

export interface Delivery {
  /** Sent as `X-Service-Delivery`; the same on every retry. */
  id: string;
  endpointId: string;
  workspaceId: string;
  event: string;
  /** The exact bytes sent (and signed), as UTF-8 text. */
  body: string;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
}

/** Each `true` is one deviation from the contract, used by the fault catalogue. */
export interface WebhookFaults {
  /** Signs `JSON.stringify(JSON.parse(body), null, 1)` but sends the original bytes. */
  signatureReserialized?: boolean;
  /** Signs with a secret other than the endpoint's. */
  signatureWrongSecret?: boolean;
  /** Uppercase hex in the signature header(s). */
  signatureUppercase?: boolean;
  /** `X-Service-Signature` carries the bare hex, without `sha256=`. */
  prefixMissing?: boolean;
  /** Delivers every event of the workspace to every endpoint, chosen or not. */
  unsubscribedDelivered?: boolean;
  /**
   * Applies the event selection per workspace instead of per endpoint: every endpoint gets each
   * event that any endpoint of its workspace chose (nothing nobody chose).
   */
  chosenPerWorkspace?: boolean;
  /** Sends nothing to an `https:` endpoint: each delivery there fails at once. */
  httpsLost?: boolean;
  /** Sends each delivery a second time, same id, after the receiver answered it 2xx. */
  sentTwice?: boolean;
  /** Sends deliveries as `text/plain` instead of `application/json`. */
  contentTypeText?: boolean;
  /**
   * Delivers every workspace's events to every endpoint subscribed to them, whatever the
   * endpoint's workspace (isolation broken on the way out).
   */
  crossWorkspace?: boolean;
  /**
   * Encodes the body as Latin-1 (ISO-8859-1) instead of UTF-8, still under `application/json`,
   * and signs the bytes it sends (so only the encoding is wrong).
   */
  bodyLatin1?: boolean;
}

export interface DispatcherOptions {
  /** The service clock in ms since the epoch, used for every timestamp. Default `Date.now`. */
  now?: () => number;
  /**
   * Base delay before each retry, in order; attempts = length + 1. Default
   * `[1000, 5000, 30000, 120000, 600000]` (6 attempts). Retry timers run on real time.
   */
  retryDelaysMs?: number[];
  /**
   * Fraction of full jitter in 0..1: each delay is drawn uniformly from
   * `(base * (1 - jitter), base]`. Default 0.2.
   */
  jitter?: number;
  /** A 2xx must arrive (headers and body) within this many ms. Default 10_000. */
  timeoutMs?: number;
  /**
   * PEM certificates trusted for HTTPS deliveries, in addition to Node's bundled roots. TLS
   * verification is never switched off. Default: bundled roots only.
   */
  trustedCa?: string[];
  /** Deviations to apply (fault catalogue). Default: none. */
  faults?: WebhookFaults;
  /**
   * Where the docs are silent (server/readings/webhooks.ts): whether deliveries are retried, the
   * delivery id's header, the signature forms. Default: our assumptions.
   */
  behaviour?: Partial<Pick<WebhookBehaviour, 'retries' | 'deliveryIdHeader' | 'signatureForms'>>;
  /** Base URL of the dashboard stand-in, for links in payloads. Default `http://127.0.0.1`. */
  dashboardBaseUrl?: string;
  /** Source of randomness for jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
}
