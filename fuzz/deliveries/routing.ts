/**
 * Which endpoint a captured delivery was sent to, by path, and its verdict under that endpoint's
 * form and secret, judged once however often the scenario and the tally ask.
 */
import type { CapturedDelivery, CaptureReceiver } from '../../core/webhooks/capture-receiver.ts';
import type { Endpoint } from './endpoints.ts';
import { type DeliveryVerdict, verifyDelivery } from './verify-delivery.ts';

export interface DeliveryRouter {
  endpointOf(d: CapturedDelivery): Endpoint | undefined;
  /** The deliveries captured so far at `e`. */
  at(e: Endpoint): CapturedDelivery[];
  judge(d: CapturedDelivery, e: Endpoint): DeliveryVerdict;
}

/** `publicPath`: the path of the receiver's public URL, without its trailing `/`. */
export function deliveryRouter(
  receiver: CaptureReceiver,
  endpoints: readonly Endpoint[],
  publicPath: string,
): DeliveryRouter {
  const judged = new Map<CapturedDelivery, DeliveryVerdict>();
  // A tunnel or ingress may keep the public URL's own path or strip it.
  const pathOf = (d: CapturedDelivery) => d.path.split('?')[0]!;
  const endpointOf = (d: CapturedDelivery) =>
    endpoints.find((e) => [`${publicPath}${e.path}`, e.path || '/'].includes(pathOf(d)));
  return {
    endpointOf,
    at: (e) => receiver.deliveries.filter((d) => endpointOf(d) === e),
    judge(d, e) {
      let v = judged.get(d);
      if (!v) {
        v = verifyDelivery(d, e.form, e.secret);
        judged.set(d, v);
      }
      return v;
    },
  };
}
