/**
 * The tally of every delivery captured during the run, whichever scenario (or shrink step) caused
 * it: per endpoint, per event, per header form verified or rejected, and the failing deliveries.
 */
import type { SignatureForm } from '../../core/signature/index.ts';
import type { CapturedDelivery } from '../../core/webhooks/capture-receiver.ts';
import { deliveryRepro } from '../../core/webhooks/delivery-repro.ts';
import { renderDelivery } from '../shared/transcript.ts';
import { type Endpoint, REGISTERED_SECRET_ENV } from './endpoints.ts';
import type { DeliveryRouter } from './routing.ts';
import type { DeliveryCheckResult, DeliveryFailure, DeliveryMismatch, FormTally } from './types.ts';

const MAX_LISTED_FAILURES = 20;

export type DeliveryTally = Pick<
  DeliveryCheckResult,
  | 'verified'
  | 'rejected'
  | 'endpoints'
  | 'events'
  | 'failures'
  | 'failedDeliveries'
  | 'assumptionMismatches'
>;

/**
 * `dashboard`: the endpoints were configured there, so each failure names its endpoint's path.
 * `receiverBase`: the URL the deployment reached the receiver under, for repros.
 */
export function tallyDeliveries(
  deliveries: readonly CapturedDelivery[],
  endpoints: readonly Endpoint[],
  router: DeliveryRouter,
  dashboard: boolean,
  secrets: string[],
  receiverBase: string,
): DeliveryTally {
  const repro = (d: CapturedDelivery, e: Endpoint, note: string) =>
    deliveryRepro(d, {
      url: `${receiverBase}${e.path}`,
      secretEnv: e.secretEnv ?? REGISTERED_SECRET_ENV,
      note,
    });
  const verified: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const rejected: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const tallies: Record<string, FormTally> = {};
  const events: Record<string, number> = {};
  const failures: DeliveryFailure[] = [];
  const mismatches = new Map<string, DeliveryMismatch>();
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
    for (const f of v.findings.filter((x) => x.provenance === 'assumed')) {
      const seen = mismatches.get(f.check);
      if (seen) seen.deliveries++;
      else
        mismatches.set(f.check, {
          check: f.check,
          deliveries: 1,
          first: f.problem,
          ...(v.event ? { event: v.event } : {}),
          endpoint: e.label,
          transcript: renderDelivery(
            d,
            [`endpoint form: ${e.form}`, `assumed: ${f.problem}`],
            secrets,
          ),
          repro: repro(d, e, f.problem),
        });
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
        check: v.findings.find((f) => f.provenance === 'documented')?.check,
        endpointForm: e.form,
        ...(dashboard ? { endpoint: e.label } : {}),
        ...(v.event ? { event: v.event } : {}),
        ...(deliveryId ? { deliveryId } : {}),
        problems: v.problems,
        transcript: renderDelivery(d, [`endpoint form: ${e.form}`], secrets),
        repro: repro(d, e, v.problems.join('; ')),
      });
    }
  }
  return {
    verified,
    rejected,
    endpoints: tallies,
    events,
    failures,
    failedDeliveries,
    assumptionMismatches: [...mismatches.values()],
  };
}
