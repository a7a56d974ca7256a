/**
 * Deployment-level fuzz: the webhook delivery check and the API input fuzz, each a function over
 * a base URL and credentials returning a JSON-serialisable result (see their modules).
 */
export {
  type ApiInputFuzzOptions,
  type ApiInputFuzzResult,
  type ApiInputOperationResult,
  runApiInputFuzz,
} from './api-input/api-input.ts';
export { formatApiInputFuzz } from './api-input/format.ts';
export { API_INPUT_OPERATIONS, type ApiInputOperation } from './api-input/operations.ts';
export { apiInputFailures } from './api-input/rules.ts';
export { deliveryFailures } from './deliveries/failures.ts';
export { runDeliveryCheck } from './deliveries/delivery-check.ts';
export { FUZZ_DEPLOYMENT } from './deliveries/embedded.ts';
export { formatDeliveryCheck } from './deliveries/format.ts';
export type { DeliveryCheckOptions, DeliveryCheckResult } from './deliveries/types.ts';
export {
  type DeliveryVerdict,
  diagnoseSignature,
  verifyDelivery,
} from './deliveries/verify-delivery.ts';
