/**
 * The delivery check's result in the run report's one failure shape (src/checks/types.ts): a
 * failing run is one documented failure of webhook.signature-valid, the rule the catalogue's
 * judges (signature over the exact bytes, payload per the spec) apply to every delivery, with
 * the minimal scenario's transcript as the repro.
 */
import type { Failure } from '../../src/checks/types.ts';
import type { DeliveryCheckResult } from './types.ts';

export function deliveryFailures(r: DeliveryCheckResult): Failure[] {
  if (r.passed) return [];
  const first = r.failures[0];
  const repro = r.counterexample?.transcript ?? first?.transcript;
  return [
    {
      check: 'webhook.signature-valid',
      provenance: 'documented',
      rule: 'Every delivery verifies over the exact received bytes in each header form present, and its payload matches the spec.',
      received:
        r.counterexample?.reason ??
        first?.problems.join('; ') ??
        `${r.failedDeliveries} deliveries failed`,
      expected: 'every delivery verifies and validates',
      ...(repro ? { repro } : {}),
    },
  ];
}
