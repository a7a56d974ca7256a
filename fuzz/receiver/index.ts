export { formatPropertyLine, formatReceiverFuzzReport } from './format.ts';
export { fuzzLocalReceiver, withLocalReceiver } from './local.ts';
export { RECEIVER_PROPERTIES } from './properties.ts';
export {
  plannedRuns,
  type ReceiverFuzzOptions,
  type ReceiverFuzzResult,
  runReceiverFuzz,
} from './run-receiver-fuzz.ts';
