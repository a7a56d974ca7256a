/**
 * The fuzz sized to the key's budget (fuzz/fuzz-size.ts): a Team key gets the gate-sized fuzz
 * (the packed samplers, the hostile delivery scenario alone: at most 45 requests in all),
 * --fuzz-cases anything else; the planned count is what the fuzzers send, every input class still
 * sent at the gate size; and detection holds — every fuzz fault of the catalogue is caught at the
 * gate size by its named check, the counterexample naming the one input that breaks it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatApiInputFuzz } from '../../fuzz/api-input/format.ts';
import { FULL_FUZZ, fuzzPlan, fuzzSize, GATE_FUZZ } from '../../fuzz/fuzz-size.ts';
import { FAULTS } from '../../server/faults.ts';
import { apiInputFailures } from '../../fuzz/api-input/rules.ts';
import { startService } from '../../server/start.ts';
import {
  apiInputFuzzOn,
  deliveryCheckOn,
  startFuzzTarget,
  UNLIMITED,
} from '../harness/fuzz-target.ts';

const GATE = fuzzSize({}, 'team');

test('a Team key gets the gate-sized fuzz; --fuzz-cases wins; otherwise the full one', () => {
  assert.equal(GATE.name, 'gate');
  assert.equal(GATE.inputCases, GATE_FUZZ.inputCases);
  assert.equal(fuzzSize({}, 'growth').inputCases, FULL_FUZZ.inputCases);
  assert.equal(fuzzSize({}).name, 'full');
  const cases = fuzzSize({ fuzzCases: 40 }, 'team');
  assert.deepEqual([cases.name, cases.inputCases, cases.deliveryRuns], ['cases', 40, 10]);
  // The gate-sized fuzz: at most 45 requests in all (input, delivery, clean-up), with the key.
  const gate = fuzzPlan(GATE, { input: true, delivery: true });
  const full = fuzzPlan(fuzzSize({}), { input: true, delivery: true }).total;
  assert.ok(gate.total <= 45, `gate ${JSON.stringify(gate)}`);
  assert.ok(gate.total < full / 5, `gate ${gate.total}, full ${full}`);
  // Through an admin surface: its set-up and flushes are counted too, not charged to the key.
  const admin = fuzzPlan(GATE, { input: true, delivery: true, admin: true });
  assert.equal(admin.admin, 1 + 2 * 3 + 1);
  assert.equal(admin.total, gate.total + admin.admin);
});

test('the planned requests are what the fuzz sends (a correct deployment), every input class sent at the gate size', async () => {
  const svc = await startFuzzTarget([], { webhooks: true });
  try {
    for (const size of [GATE, fuzzSize({ fuzzCases: 35 })]) {
      const r = await apiInputFuzzOn(svc, size.inputCases, { packed: size.packed });
      const report = formatApiInputFuzz(r);
      assert.equal(r.passed, true, report);
      assert.equal(
        r.requests,
        fuzzPlan(size, { input: true, delivery: false }).apiInput,
        `${size.name}\n${report}`,
      );
      // Counted from what was sent: every class that applies to an operation, at least once.
      for (const o of r.operations) {
        assert.equal(o.status, 'passed', report);
        const never = o.classes.filter((c) => c.cases === 0).map((c) => c.name);
        assert.deepEqual(never, [], `${size.name} ${o.operation}: classes never sent`);
      }
    }
    // Packed: far fewer cases than the full sampler's, every one of them from the sampler.
    const gate = await apiInputFuzzOn(svc, GATE.inputCases, { packed: true });
    const cases = Object.fromEntries(gate.operations.map((o) => [o.operation, o.cases]));
    assert.deepEqual(cases, { createTicket: 8, updateTicket: 6, addMessage: 8, listTickets: 9 });
    for (const o of gate.operations) assert.equal(o.sampled, o.cases);
    // The delivery check at the gate size: the hostile scenario alone, as planned.
    const d = await deliveryCheckOn(svc, GATE.deliveryRuns, 60);
    assert.equal(d.passed, true);
    assert.equal(d.requests, fuzzPlan(GATE, { input: false, delivery: true }).delivery);
  } finally {
    await svc.close();
  }
});

test('gate-sized on a lax deployment: what it accepts unvalidated is a warning under its assumed rule, nothing fails, nothing could not run', async () => {
  const svc = await startService({
    readings: ['U26=no-limits', 'U6=ignore-wrong-types'],
    enterprise: UNLIMITED,
  });
  try {
    const r = await apiInputFuzzOn(svc, GATE.inputCases, { packed: true });
    const report = formatApiInputFuzz(r);
    assert.equal(r.passed, true, report);
    for (const o of r.operations) assert.equal(o.status, 'passed', report);
    const warned = new Set(r.operations.flatMap((o) => o.warnings.map((w) => w.broken.check)));
    assert.ok(warned.has('validation.status-422'), report);
    assert.ok(warned.has('validation.too-large-413'), report);
    for (const o of r.operations)
      for (const w of o.warnings) assert.equal(w.broken.provenance, 'assumed', report);
  } finally {
    await svc.close();
  }
});

describe('the gate-sized fuzz still catches every fuzz fault of the catalogue', () => {
  // The API input faults the fuzz is tested against (test/fuzz/api-input-faults.test.ts), and the
  // one input each breaks on: a packed case that fails is split, its parts sent one by one.
  const INPUT: Record<string, RegExp> = {
    'missing-requester-500': /^sampler: required requester dropped$/,
    'subject-astral-500': /^class sampler: emoji \(plane 1\) in subject$/,
    'subject-over-300-500': /^class sampler: subject of 1000 code points/,
    'tags-over-20-500': /^class sampler: 50 tags/,
    'subject-astral-replaced': /^class sampler: emoji \(plane 1\) in subject$/,
  };
  for (const [name, input] of Object.entries(INPUT)) {
    test(name, async () => {
      const fault = FAULTS.find((f) => f.name === name)!;
      const svc = await startFuzzTarget([name]);
      try {
        const r = await apiInputFuzzOn(svc, GATE.inputCases, { packed: true });
        const report = formatApiInputFuzz(r);
        const [create, ...rest] = r.operations;
        assert.equal(r.passed, false, report);
        assert.equal(create?.broken?.check, fault.check, report);
        assert.match(create?.counterexample?.note ?? '', input, report);
        assert.match(
          create?.counterexample?.transcript ?? '',
          /^> POST \/v1\/tickets HTTP\/1\.1$/m,
        );
        // One rule broken, one failure filed; the other operations unaffected.
        assert.deepEqual(
          apiInputFailures(r).map((f) => f.check),
          [fault.check],
        );
        for (const o of rest) assert.equal(o.status, 'passed', `${o.operation}\n${report}`);
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
