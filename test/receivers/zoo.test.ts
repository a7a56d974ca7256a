/**
 * The receiver fuzz against the zoo: each faulty receiver fails the property named for its
 * fault, and the example receiver passes every property. Case counts are small; the faults are
 * blatant enough that a handful of cases finds each one.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { describe, test } from 'node:test';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import {
  RECEIVER_PROPERTIES,
  type ReceiverFuzzResult,
  fuzzLocalReceiver,
} from '../../fuzz/receiver/index.ts';
import { ZOO } from './faulty-receivers.ts';

const secret = 'zoo-secret-4f1c9a';

function fuzz(server: Server, cases = 12): Promise<ReceiverFuzzResult> {
  return fuzzLocalReceiver(server, { secret, cases, maxSeconds: 20 });
}

const failing = (r: ReceiverFuzzResult) => [
  ...new Set(r.properties.filter((p) => !p.passed).map((p) => p.name)),
];

describe('receiver fuzz against the zoo of faulty receivers', () => {
  for (const entry of ZOO) {
    test(`${entry.fault} → ${entry.caughtBy}`, async () => {
      assert.ok(
        RECEIVER_PROPERTIES.some((p) => p.name === entry.caughtBy),
        `unknown property ${entry.caughtBy}`,
      );
      const result = await fuzz(entry.create(secret));
      assert.equal(result.passed, false);
      assert.ok(
        failing(result).includes(entry.caughtBy),
        `expected ${entry.caughtBy} to fail; failing: ${failing(result).join(', ') || 'none'}`,
      );
      const caught = result.properties.find((p) => p.name === entry.caughtBy && !p.passed)!;
      assert.match(caught.counterexample ?? '', /^> POST \/webhook HTTP\/1\.1$/m);
      assert.match(caught.counterexample ?? '', /^< HTTP\/1\.1 \d{3}/m);
      assert.ok(!caught.counterexample?.includes(secret), 'the secret must be redacted');
    });
  }
});

test('the example receiver passes every property, in both forms', async () => {
  const result = await fuzz(createReceiver({ secret }), 15);
  assert.deepEqual(failing(result), []);
  assert.equal(result.properties.filter((p) => p.status === 'skipped').length, 0);
  const names = new Set(result.properties.map((p) => p.name));
  assert.deepEqual([...names].sort(), RECEIVER_PROPERTIES.map((p) => p.name).sort());
  // The result goes into reports as JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
});
