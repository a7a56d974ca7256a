/** The registry of every check of the harness, built once. */
import { ALL_CHECKS } from './all.ts';
import { CheckRegistry } from './registry.ts';

export const checks = new CheckRegistry().register(...ALL_CHECKS);

export type { CheckArgsOf, CheckName, HarnessCheck } from './all.ts';

export { formatFailure, show, toFailure } from './failure.ts';
export { curlRepro } from './repro.ts';
export { CheckRegistry, defineCheck } from './registry.ts';
export type {
  ArgsOf,
  Check,
  Exchange,
  Failure,
  NameOf,
  RecordedRequest,
  RecordedResponse,
  Violation,
} from './types.ts';
