/**
 * The receiver fuzz against the zoo: each faulty receiver fails the property named for its
 * fault — and the run, when that property is documented; an assumed one (hardening against
 * bodies the service never sends) is a warning that fails the run only with --strict — and the
 * example receiver passes every property. Case counts are small; the faults are blatant enough
 * that a handful of cases finds each one.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { describe, test } from 'node:test';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import { RECEIVER_PROPERTIES } from '../../fuzz/receiver/properties.ts';
import type { ReceiverFuzzResult } from '../../fuzz/receiver/run-receiver-fuzz.ts';
import { fuzzLocalReceiver } from '../../fuzz/receiver/local.ts';
import { ZOO } from './faulty-receivers.ts';

const secret = 'zoo-secret-4f1c9a';

function fuzz(server: Server, cases = 12, strict = false): Promise<ReceiverFuzzResult> {
  return fuzzLocalReceiver(server, { secret, cases, maxSeconds: 20, strict });
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
      const property = RECEIVER_PROPERTIES.find((p) => p.name === entry.caughtBy)!;
      const result = await fuzz(entry.create(secret));
      assert.ok(
        failing(result).includes(entry.caughtBy),
        `expected ${entry.caughtBy} to fail; failing: ${failing(result).join(', ') || 'none'}`,
      );
      const caught = result.properties.find((p) => p.name === entry.caughtBy && !p.passed)!;
      assert.equal(caught.provenance, property.provenance);
      if (entry.cause) assert.match(caught.cause ?? '(no cause named)', entry.cause);
      assert.match(caught.counterexample ?? '', /^> POST \/webhook HTTP\/1\.1$/m);
      assert.match(caught.counterexample ?? '', /^< HTTP\/1\.1 \d{3}/m);
      assert.ok(!caught.counterexample?.includes(secret), 'the secret must be redacted');
      if (property.provenance === 'documented') {
        assert.equal(result.passed, false, 'a broken documented property fails the run');
      } else {
        // Only hardening is missing: the run passes with the warning, and fails with --strict.
        assert.ok(caught.why, 'an assumed property says why');
        const strict = await fuzz(entry.create(secret), 12, true);
        assert.equal(strict.passed, false, 'with --strict the warning fails the run');
        assert.ok(failing(strict).includes(entry.caughtBy));
      }
    });
  }
});

test('the example receiver passes every property, in both forms', async () => {
  const result = await fuzz(createReceiver({ secret }), 15, true);
  assert.deepEqual(failing(result), []);
  assert.equal(result.passed, true);
  assert.equal(result.warnings, 0);
  assert.equal(result.properties.filter((p) => p.status === 'skipped').length, 0);
  const names = new Set(result.properties.map((p) => p.name));
  assert.deepEqual([...names].sort(), RECEIVER_PROPERTIES.map((p) => p.name).sort());
  // The result goes into reports as JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
});
