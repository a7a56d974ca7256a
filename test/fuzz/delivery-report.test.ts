/**
 * How a failing delivery check reads, on the console and in the run report: the minimal
 * counterexample is whatever failed in the smallest case (on a busy machine that can be a delivery
 * that came too late), so the wrong deliveries captured in the run are named as well, and never
 * twice when the counterexample already says the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliveryFailures } from '../../fuzz/deliveries/failures.ts';
import { formatDeliveryCheck } from '../../fuzz/deliveries/format.ts';
import type { DeliveryCheckResult } from '../../fuzz/deliveries/types.ts';

const WRONG =
  'X-Service-Signature: it signs a re-serialisation of the JSON, not the bytes that were sent';

function result(counterexampleReason?: string): DeliveryCheckResult {
  return {
    name: 'webhook-delivery-check',
    passed: false,
    seed: 42,
    numRuns: 1,
    shrinks: 3,
    durationMs: 1000,
    requests: 16,
    deliveries: 7,
    verified: { prefixed: 0, plain: 0 },
    rejected: { prefixed: 7, plain: 0 },
    endpoints: { prefixed: { deliveries: 7, ok: 0, failed: 7 } },
    events: { 'ticket.created': 7 },
    failures: [
      {
        endpointForm: 'prefixed',
        event: 'ticket.created',
        problems: [WRONG],
        transcript: '> POST /hook/prefixed HTTP/1.1',
        repro: 'sig=$(openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" < delivery.body)',
      },
    ],
    failedDeliveries: 7,
    assumptionMismatches: [],
    ...(counterexampleReason
      ? {
          counterexample: {
            reason: counterexampleReason,
            input: { subject: 'a' },
            transcript: '# ticket tkt_1',
          },
        }
      : {}),
  };
}

test('a counterexample of another kind (a late delivery) still shows the wrong signatures captured', () => {
  const r = result('deliveries missing after 10000 ms (prefixed: ticket.closed)');
  const text = formatDeliveryCheck(r);
  assert.match(text, /minimal counterexample .*deliveries missing/);
  assert.match(
    text,
    /first failing delivery \(7 failed in the run\): X-Service-Signature: it signs a re-serialisation/,
  );
  assert.match(text, /> POST \/hook\/prefixed/);
  const [f] = deliveryFailures(r);
  assert.match(
    f!.received,
    /^deliveries missing after 10000 ms .*; 7 deliveries failed, the first: X-Service-Signature: it signs a re-serialisation/,
  );
});

test('a counterexample that is the wrong signature is not repeated', () => {
  const r = result(`endpoint prefixed, ticket.created: ${WRONG}`);
  const text = formatDeliveryCheck(r);
  assert.equal(text.match(/re-serialisation/g)?.length, 1, text);
  assert.doesNotMatch(text, /first failing delivery/);
  assert.equal(deliveryFailures(r)[0]!.received, `endpoint prefixed, ticket.created: ${WRONG}`);
});

test('without a counterexample (the property held, a late delivery did not) the failing delivery is the report', () => {
  const r = result();
  assert.match(formatDeliveryCheck(r), /first failing delivery \(7 failed in the run\): X-Service/);
  assert.equal(deliveryFailures(r)[0]!.received, `7 deliveries failed, the first: ${WRONG}`);
  assert.deepEqual(deliveryFailures({ ...r, passed: true }), []);
});
