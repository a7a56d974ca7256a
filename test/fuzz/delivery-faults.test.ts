/**
 * The delivery check catches every signature fault of the reference deployment, each with the
 * diagnosis that names it, a minimal counterexample and a redacted transcript.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDeliveryCheck } from '../../fuzz/deliveries/format.ts';
import { deliveryCheckOn, startFuzzTarget } from '../harness/fuzz-target.ts';

const TABLE = [
  {
    fault: 'signature-reserialized',
    diagnosis: /re-serialisation of the JSON/,
    forms: ['prefixed', 'plain', 'both'],
  },
  {
    fault: 'signature-wrong-secret',
    diagnosis: /not the HMAC-SHA256 of the received bytes under the endpoint secret/,
    forms: ['prefixed', 'plain', 'both'],
  },
  {
    fault: 'signature-uppercase',
    diagnosis: /uppercase hex/,
    forms: ['prefixed', 'plain', 'both'],
  },
  // The plain form carries no prefix, so only endpoints with the prefixed header fail.
  {
    fault: 'signature-prefix-missing',
    diagnosis: /sha256= prefix is missing/,
    forms: ['prefixed', 'both'],
  },
] as const;

describe('delivery check catches each signature fault', () => {
  for (const row of TABLE) {
    test(row.fault, async () => {
      const svc = await startFuzzTarget([row.fault], { webhooks: true });
      try {
        const r = await deliveryCheckOn(svc, 15, 60);
        const report = formatDeliveryCheck(r);
        assert.equal(r.passed, false, `the check must fail:\n${report}`);
        const ce = r.counterexample;
        assert.ok(ce !== undefined, `a minimal counterexample:\n${report}`);
        assert.match(ce.reason, row.diagnosis);
        assert.match(ce.transcript, /^> POST \/(prefixed|plain|both)\/\S+ HTTP\/1\.1$/m);
        assert.ok(
          !ce.transcript.includes(svc.credentials.workspaces.enterprise.keys.full),
          'API key redacted',
        );
        assert.ok(!JSON.stringify(r).includes(svc.credentials.adminToken), 'admin token redacted');
        assert.ok(r.failures.length > 0, 'failing deliveries listed');
        for (const f of r.failures) assert.match(f.problems.join('; '), row.diagnosis);
        for (const form of ['prefixed', 'plain', 'both'] as const) {
          const t = r.endpoints[form];
          assert.ok(t !== undefined && t.deliveries > 0, `${form}: deliveries captured`);
          const shouldFail = (row.forms as readonly string[]).includes(form);
          assert.equal(t.failed > 0, shouldFail, `${form}: ${JSON.stringify(t)}`);
        }
      } finally {
        await svc.close();
      }
    });
  }
});

test('delivery check: a body encoded as Latin-1 under application/json breaks the Content-Type rule, signed as sent', async () => {
  const svc = await startFuzzTarget(['webhook-body-latin1'], { webhooks: true });
  try {
    const r = await deliveryCheckOn(svc, 5, 60);
    const report = formatDeliveryCheck(r);
    assert.equal(r.passed, false, `the check must fail:\n${report}`);
    assert.ok(r.failures.length > 0, 'failing deliveries listed');
    // The hostile content is never ASCII only: every failing delivery says it is not UTF-8,
    // and nothing else — its signatures verify over the bytes it sent.
    for (const f of r.failures)
      assert.deepEqual(
        f.problems.map((p) => p.replace(/: byte 0x.*/, '')),
        ['Content-Type: Content-Type application/json with a body that is not valid UTF-8'],
      );
  } finally {
    await svc.close();
  }
});
