/**
 * How the embedded reference deployment is started as a fuzz target (core/target/resolve-target.ts
 * starts it): short webhook retries, and an Enterprise workspace whose limits never get in the
 * way — the fuzz measures input handling and signatures, not rate limits.
 */
import type { EmbeddedOptions } from '../../core/target/resolve-target.ts';

export const FUZZ_DEPLOYMENT: EmbeddedOptions = {
  workspace: 'enterprise',
  webhookRetryDelaysMs: [50, 100, 200],
  enterprise: { ratePerMin: 1_000_000, burst: 1_000_000 },
};
