export { DEFAULT_JITTER, DEFAULT_RETRY_DELAYS_MS, retryDelay } from './backoff.ts';
export { USER_AGENT, WebhookDispatcher } from './dispatcher.ts';
export { ASSUMED_EVENTS, DOCUMENTED_EVENTS, WEBHOOK_EVENTS } from './events.ts';
export { type AttemptVerdict, classifyAttempt } from './outcome.ts';
export {
  PLAIN_HEADER,
  PREFIXED_HEADER,
  SIGNATURE_PREFIX,
  signatureHeaders,
} from './sign.ts';
export { createDeliveryAgent, generateSelfSignedCert } from './tls.ts';
export type {
  Delivery,
  DeliveryAttempt,
  DeliveryState,
  DispatcherOptions,
  WebhookEndpoint,
  WebhookFaults,
} from './types.ts';
