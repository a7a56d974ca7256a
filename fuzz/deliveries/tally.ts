/**
 * The tally of every delivery captured during the run, whichever scenario (or shrink step) caused
 * it: per endpoint, per event, per header form verified or rejected, and the failing deliveries.
 */
import type { SignatureForm } from '../../src/signature/index.ts';
import type { CapturedDelivery } from '../../src/webhooks/capture-receiver.ts';
import { renderDelivery } from '../shared/transcript.ts';
import type { Endpoint } from './endpoints.ts';
import type { DeliveryRouter } from './routing.ts';
import type { DeliveryCheckResult, DeliveryFailure, FormTally } from './types.ts';

const MAX_LISTED_FAILURES = 20;

export type DeliveryTally = Pick<
  DeliveryCheckResult,
  'verified' | 'rejected' | 'endpoints' | 'events' | 'failures' | 'failedDeliveries'
>;

/** `dashboard`: the endpoints were configured there, so each failure names its endpoint's path. */
export function tallyDeliveries(
  deliveries: readonly CapturedDelivery[],
  endpoints: readonly Endpoint[],
  router: DeliveryRouter,
  dashboard: boolean,
  secrets: string[],
): DeliveryTally {
  const verified: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const rejected: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const tallies: Record<string, FormTally> = {};
  const events: Record<string, number> = {};
  const failures: DeliveryFailure[] = [];
  let failedDeliveries = 0;
  for (const e of endpoints) tallies[e.label] = { deliveries: 0, ok: 0, failed: 0 };
  for (const d of deliveries) {
    const e = router.endpointOf(d);
    if (!e) continue;
    const v = router.judge(d, e);
    const tally = tallies[e.label]!;
    tally.deliveries++;
    if (v.event) events[v.event] = (events[v.event] ?? 0) + 1;
    for (const h of v.headers) {
      if (h.verified) verified[h.form]++;
      else if (h.present || h.expected) rejected[h.form]++;
    }
    if (v.ok) {
      tally.ok++;
      continue;
    }
    tally.failed++;
    failedDeliveries++;
    if (failures.length < MAX_LISTED_FAILURES) {
      const deliveryId = d.headers['x-service-delivery'];
      failures.push({
        endpointForm: e.form,
        ...(dashboard ? { endpoint: e.label } : {}),
        ...(v.event ? { event: v.event } : {}),
        ...(deliveryId ? { deliveryId } : {}),
        problems: v.problems,
        transcript: renderDelivery(d, [`endpoint form: ${e.form}`], secrets),
      });
    }
  }
  return { verified, rejected, endpoints: tallies, events, failures, failedDeliveries };
}
