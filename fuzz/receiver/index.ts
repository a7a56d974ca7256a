export { formatPropertyLine, formatReceiverFuzzReport } from './format.ts';
export { fuzzLocalReceiver } from './local.ts';
export { type PropertyContext, RECEIVER_PROPERTIES, type ReceiverProperty } from './properties.ts';
export {
  type PropertyResult,
  plannedRuns,
  type ReceiverFuzzOptions,
  type ReceiverFuzzResult,
  runReceiverFuzz,
} from './run-receiver-fuzz.ts';
