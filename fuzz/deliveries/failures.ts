/**
 * The delivery check's result in the run report's one failure shape (src/checks/types.ts): a
 * failing run is one documented failure of webhook.signature-valid, the rule the catalogue's
 * judges (signature over the exact bytes, payload per the spec) apply to every delivery, with
 * the minimal scenario's transcript as the repro.
 */
import type { Failure } from '../../src/checks/types.ts';
import type { DeliveryCheckResult } from './types.ts';

/** The minimal case's reason and, when it is another failure, what the wrong deliveries show. */
function received(r: DeliveryCheckResult): string {
  const problems = r.failures[0]?.problems.join('; ');
  const deliveries = problems && `${r.failedDeliveries} deliveries failed, the first: ${problems}`;
  const reason = r.counterexample?.reason;
  if (!reason) return deliveries || `${r.failedDeliveries} deliveries failed`;
  return deliveries && !reason.includes(problems) ? `${reason}; ${deliveries}` : reason;
}

export function deliveryFailures(r: DeliveryCheckResult): Failure[] {
  if (r.passed) return [];
  const first = r.failures[0];
  const repro = r.counterexample?.transcript ?? first?.transcript;
  return [
    {
      check: 'webhook.signature-valid',
      provenance: 'documented',
      rule: 'Every delivery verifies over the exact received bytes in each header form present, and its payload matches the spec.',
      received: received(r),
      expected: 'every delivery verifies and validates',
      ...(repro ? { repro } : {}),
    },
  ];
}
