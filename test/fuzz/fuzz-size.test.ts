/**
 * The fuzz sized to the key's budget (fuzz/fuzz-size.ts): a Team key gets the gate-sized fuzz,
 * --fuzz-cases anything else; the planned count is what the fuzzers send; and detection holds —
 * every fuzz fault of the catalogue is caught at the gate size.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatApiInputFuzz } from '../../fuzz/api-input/format.ts';
import { FULL_FUZZ, fuzzPlan, fuzzSize, GATE_FUZZ } from '../../fuzz/fuzz-size.ts';
import { FAULTS } from '../../server/faults.ts';
import { apiInputFuzzOn, deliveryCheckOn, startFuzzTarget } from '../harness/fuzz-target.ts';

const GATE = fuzzSize({}, 'team');

test('a Team key gets the gate-sized fuzz; --fuzz-cases wins; otherwise the full one', () => {
  assert.equal(GATE.name, 'gate');
  assert.equal(GATE.inputCases, GATE_FUZZ.inputCases);
  assert.equal(fuzzSize({}, 'growth').inputCases, FULL_FUZZ.inputCases);
  assert.equal(fuzzSize({}).name, 'full');
  const cases = fuzzSize({ fuzzCases: 40 }, 'team');
  assert.deepEqual([cases.name, cases.inputCases, cases.deliveryRuns], ['cases', 40, 10]);
  // The gate-sized fuzz costs about half the full one.
  const gate = fuzzPlan(GATE, { input: true, delivery: true }).total;
  const full = fuzzPlan(fuzzSize({}), { input: true, delivery: true }).total;
  assert.ok(gate < full * 0.7, `gate ${gate}, full ${full}`);
});

test('the planned API input requests are what the fuzz sends (a correct deployment)', async () => {
  const svc = await startFuzzTarget();
  try {
    for (const size of [GATE, fuzzSize({ fuzzCases: 35 })]) {
      const r = await apiInputFuzzOn(svc, size.inputCases);
      assert.equal(r.passed, true, formatApiInputFuzz(r));
      assert.equal(
        r.requests,
        fuzzPlan(size, { input: true, delivery: false }).apiInput,
        size.name,
      );
    }
  } finally {
    await svc.close();
  }
});

describe('the gate-sized fuzz still catches every fuzz fault of the catalogue', () => {
  // The API input faults the fuzz is tested against (test/fuzz/api-input-faults.test.ts).
  for (const name of [
    'missing-requester-500',
    'subject-astral-500',
    'subject-over-300-500',
    'tags-over-20-500',
    'subject-astral-replaced',
  ]) {
    test(name, async () => {
      const fault = FAULTS.find((f) => f.name === name)!;
      const svc = await startFuzzTarget([name]);
      try {
        const r = await apiInputFuzzOn(svc, GATE.inputCases, { operations: ['createTicket'] });
        const [create] = r.operations;
        assert.equal(r.passed, false, formatApiInputFuzz(r));
        assert.equal(create?.broken?.check, fault.check);
      } finally {
        await svc.close();
      }
    });
  }
  // The signature faults the delivery check is tested against (delivery-faults.test.ts).
  for (const name of [
    'signature-reserialized',
    'signature-wrong-secret',
    'signature-uppercase',
    'signature-prefix-missing',
    'webhook-body-latin1',
  ]) {
    test(name, async () => {
      const svc = await startFuzzTarget([name], { webhooks: true });
      try {
        const r = await deliveryCheckOn(svc, GATE.deliveryRuns, 60);
        assert.equal(r.passed, false, `${name} caught`);
        assert.ok(r.failures.length > 0);
      } finally {
        await svc.close();
      }
    });
  }
});
