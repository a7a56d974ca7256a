export { DEFAULT_RETRY_DELAYS_MS, retryDelay } from './backoff.ts';
export { WebhookDispatcher } from './dispatcher.ts';
export { WEBHOOK_EVENTS } from './events.ts';
export { classifyAttempt } from './outcome.ts';
export { generateSelfSignedCert } from './tls.ts';
export type { Delivery, DispatcherOptions, WebhookFaults } from './types.ts';
