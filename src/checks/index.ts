/** The registry of every check of the harness, built once. */
import { AUTH_CHECKS } from './catalogue/auth.ts';
import { EXCHANGE_CHECKS } from './catalogue/exchange.ts';
import { TICKET_CHECKS } from './catalogue/tickets.ts';
import { VALIDATION_CHECKS } from './catalogue/validation.ts';
import { WEBHOOK_CHECKS } from './catalogue/webhooks.ts';
import { CheckRegistry } from './registry.ts';

export const checks = new CheckRegistry().register(
  ...EXCHANGE_CHECKS,
  ...TICKET_CHECKS,
  ...AUTH_CHECKS,
  ...VALIDATION_CHECKS,
  ...WEBHOOK_CHECKS,
);

export { formatFailure, show, toFailure } from './failure.ts';
export { curlRepro } from './repro.ts';
export { CheckRegistry, defineCheck } from './registry.ts';
export type {
  Check,
  Exchange,
  Failure,
  RecordedRequest,
  RecordedResponse,
  Violation,
} from './types.ts';
