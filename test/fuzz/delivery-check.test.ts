/**
 * The delivery check against the correct reference deployment: every delivery of every scenario
 * (hostile ticket content, three endpoints — prefixed, plain, both) verifies over the bytes
 * received and carries a payload valid against its event schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningService } from '../../server/start.ts';
import { formatDeliveryCheck } from '../../fuzz/deliveries/format.ts';
import type { DeliveryCheckResult } from '../../fuzz/deliveries/types.ts';
import { fuzzSeed } from '../../fuzz/shared/seed.ts';
import { deliveryCheckOn, startFuzzTarget } from '../harness/fuzz-target.ts';

describe('delivery check on the correct deployment', () => {
  let svc: RunningService;
  let result: DeliveryCheckResult;

  before(async () => {
    svc = await startFuzzTarget([], { webhooks: true });
    result = await deliveryCheckOn(svc, 15, 20);
  });
  after(() => svc?.close());

  test('every delivery verifies and validates', () => {
    assert.equal(result.passed, true, formatDeliveryCheck(result));
    assert.equal(result.failedDeliveries, 0, 'no failing delivery');
  });

  test('each endpoint form got the whole scenario of every case', () => {
    // 15 random scenarios plus the hand-made one, 7 events each (4 documented, 3 assumed names).
    for (const form of ['prefixed', 'plain', 'both'] as const) {
      const t = result.endpoints[form];
      assert.ok(t !== undefined, `a tally for the ${form} endpoint`);
      assert.equal(t.deliveries, 16 * 7, `${form}: deliveries ${JSON.stringify(t)}`);
      assert.equal(t.ok, t.deliveries, `${form}: all ok`);
    }
    for (const event of ['ticket.created', 'ticket.replied', 'customer.replied', 'ticket.closed'])
      assert.ok((result.events[event] ?? 0) >= 16 * 3, `${event} delivered to all three endpoints`);
  });

  test('both header forms were verified: prefixed and both carry one, plain and both the other', () => {
    assert.equal(result.verified.prefixed, 2 * 16 * 7, 'X-Service-Signature verifications');
    assert.equal(result.verified.plain, 2 * 16 * 7, 'service-signature verifications');
    assert.deepEqual(result.rejected, { prefixed: 0, plain: 0 });
  });

  test('the result is JSON-serialisable and carries the seed', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    assert.equal(result.seed, fuzzSeed());
    assert.equal(result.numRuns, 15);
  });

  test('no secret leaves the check', () => {
    const text = JSON.stringify(result);
    assert.ok(!text.includes(svc.credentials.adminToken), 'admin token not in the result');
    assert.ok(
      !text.includes(svc.credentials.workspaces.enterprise.keys.full),
      'API key not in the result',
    );
  });

  test('the endpoints it registered are removed afterwards', async () => {
    const res = await fetch(`${svc.baseUrl}/admin/webhooks`, {
      headers: { 'x-admin-token': svc.credentials.adminToken },
    });
    const body = (await res.json()) as { data: unknown[] };
    assert.deepEqual(body.data, [], 'no endpoint left behind');
  });
});
