/**
 * Deployment-level fuzz: the webhook delivery check and the API input fuzz, each a function over
 * a base URL and credentials returning a JSON-serialisable result (see their modules).
 */
export { runApiInputFuzz } from './api-input/api-input.ts';
export { apiInputFailures } from './api-input/rules.ts';
export { deliveryFailures } from './deliveries/failures.ts';
export { runDeliveryCheck } from './deliveries/delivery-check.ts';
export { FUZZ_DEPLOYMENT } from './deliveries/embedded.ts';
