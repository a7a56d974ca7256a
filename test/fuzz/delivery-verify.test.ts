/**
 * The delivery judge on its own, in-process: a delivery signed as documented passes in every
 * endpoint form, and each way a sender gets the signature wrong is rejected with the diagnosis
 * that names it — over random JSON payloads, both header forms.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { verifyDelivery } from '../../fuzz/deliveries/verify-delivery.ts';
import type { CapturedDelivery } from '../../core/webhooks/capture-receiver.ts';
import { fcParams } from '../../fuzz/shared/seed.ts';
import { ticketContentArb } from '../../fuzz/arbitraries/ticket-content-arb.ts';

const FORMS = ['prefixed', 'plain', 'both'] as const;

/** A schema-valid ticket.created payload carrying hostile content, compactly serialised. */
const payloadArb = ticketContentArb().map((c) =>
  Buffer.from(
    JSON.stringify({
      event: 'ticket.created',
      ticket: {
        id: 'tkt_1',
        subject: c.subject,
        status: 'open',
        priority: c.priority ?? 'normal',
        url: 'https://dashboard.example/tickets/tkt_1',
      },
      customer: { name: c.requester.name ?? c.requester.email, email: c.requester.email },
      occurred_at: '2026-01-01T00:00:00.000Z',
    }),
  ),
);

type Sender = (secret: string, raw: Buffer) => string;
const hex: Sender = (secret, raw) => createHmac('sha256', secret).update(raw).digest('hex');

function delivery(
  form: (typeof FORMS)[number],
  raw: Buffer,
  prefixed: string,
  plain: string,
): CapturedDelivery {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (form !== 'plain') headers['x-service-signature'] = prefixed;
  if (form !== 'prefixed') headers['service-signature'] = plain;
  return { receivedAt: 0, method: 'POST', path: '/', headers, raw, answered: 204 };
}

const SECRET = 'whsec_unit_7f3a9c';

const FAULTS: Array<{ name: string; sign: Sender; prefix: string; diagnosis: RegExp }> = [
  {
    name: 'uppercase hex',
    sign: (s, r) => hex(s, r).toUpperCase(),
    prefix: 'sha256=',
    diagnosis: /uppercase hex/,
  },
  {
    name: 'wrong secret',
    sign: (_s, r) => hex('another-secret', r),
    prefix: 'sha256=',
    diagnosis: /wrong secret/,
  },
  {
    name: 're-serialised JSON',
    sign: (s, r) => hex(s, Buffer.from(JSON.stringify(JSON.parse(r.toString()), null, 2))),
    prefix: 'sha256=',
    diagnosis: /re-serialisation/,
  },
  {
    name: 'truncated',
    sign: (s, r) => hex(s, r).slice(0, 40),
    prefix: 'sha256=',
    diagnosis: /malformed/,
  },
];

describe('verifyDelivery', () => {
  test('a documented signature passes in every endpoint form', () => {
    fc.assert(
      fc.property(payloadArb, fc.constantFrom(...FORMS), (raw, form) => {
        const h = hex(SECRET, raw);
        const v = verifyDelivery(delivery(form, raw, `sha256=${h}`, h), form, SECRET);
        assert.equal(v.ok, true, v.problems.join('; '));
        assert.equal(v.event, 'ticket.created');
        assert.equal(v.ticketId, 'tkt_1');
      }),
      fcParams({ numRuns: 100 }),
    );
  });

  for (const fault of FAULTS) {
    test(`${fault.name} is rejected and diagnosed`, () => {
      fc.assert(
        fc.property(payloadArb, fc.constantFrom(...FORMS), (raw, form) => {
          const bad = fault.sign(SECRET, raw);
          const v = verifyDelivery(delivery(form, raw, fault.prefix + bad, bad), form, SECRET);
          assert.equal(v.ok, false, 'must fail');
          assert.match(v.problems.join('; '), fault.diagnosis);
        }),
        fcParams({ numRuns: 50 }),
      );
    });
  }

  test('the sha256= prefix missing is diagnosed as such; the plain header is unaffected', () => {
    fc.assert(
      fc.property(payloadArb, (raw) => {
        const h = hex(SECRET, raw);
        const v = verifyDelivery(delivery('both', raw, h, h), 'both', SECRET);
        assert.equal(v.ok, false, 'must fail');
        assert.match(v.problems.join('; '), /^X-Service-Signature: the sha256= prefix is missing/);
        assert.equal(v.headers.find((x) => x.form === 'plain')?.verified, true, 'plain verifies');
      }),
      fcParams({ numRuns: 30 }),
    );
  });

  test('a payload without the documented envelope is a documented problem; a promised header that is absent is an assumed one (U15)', () => {
    const raw = Buffer.from('{"event":"ticket.created","ticket":{"id":"t"}}');
    const h = hex(SECRET, raw);
    const v = verifyDelivery(delivery('plain', raw, '', h), 'both', SECRET);
    assert.equal(v.ok, false, 'must fail');
    assert.deepEqual(
      v.findings.map((f) => [f.check, f.provenance]),
      [
        ['webhook.signature-form', 'assumed'],
        ['webhook.payload-schema', 'documented'],
        ['webhook.event-shape', 'assumed'],
      ],
    );
    assert.match(v.problems.join('\n'), /^payload: not a valid EventEnvelope/m);
    assert.doesNotMatch(v.problems.join('\n'), /X-Service-Signature/);
  });

  test('judged as the contract suite judges it: the documented envelope of ticket.replied passes, the spec extras (U13) are assumed', () => {
    const raw = Buffer.from(
      JSON.stringify({
        event: 'ticket.replied',
        ticket: {
          id: 'tkt_1',
          subject: 'Hi',
          status: 'open',
          priority: 'normal',
          url: 'https://dashboard.example/tickets/tkt_1',
        },
        customer: { name: 'Zoë', email: 'zoe@example.com' },
      }),
    );
    const h = hex(SECRET, raw);
    const v = verifyDelivery(delivery('both', raw, `sha256=${h}`, h), 'both', SECRET);
    assert.equal(v.ok, true, v.problems.join('; '));
    assert.deepEqual(
      v.findings.map((f) => [f.check, f.provenance]),
      [['webhook.event-shape', 'assumed']],
    );
    assert.match(v.findings[0]!.problem, /message/);
  });

  test('a body that is not UTF-8 breaks the application/json rule once (not the payload schema too), the signature over its bytes still verifies', () => {
    const raw = Buffer.from([0x7b, 0xff, 0x7d]);
    const h = hex(SECRET, raw);
    const v = verifyDelivery(delivery('both', raw, `sha256=${h}`, h), 'both', SECRET);
    assert.deepEqual(v.problems, [
      'Content-Type: Content-Type application/json with a body that is not valid UTF-8: byte 0xFF at offset 1 ({\\xff})',
    ]);
    assert.deepEqual(
      v.findings.map((f) => f.check),
      ['webhook.content-type'],
    );
    assert.ok(
      v.headers.every((x) => x.verified),
      'both headers verify over the bytes',
    );
  });

  test('an endpoint of unknown form (a dashboard that does not say, U15) accepts either header, needs one, and every one present must verify', () => {
    fc.assert(
      fc.property(payloadArb, fc.constantFrom(...FORMS), (raw, sent) => {
        const h = hex(SECRET, raw);
        const v = verifyDelivery(delivery(sent, raw, `sha256=${h}`, h), 'unknown', SECRET);
        assert.equal(v.ok, true, v.problems.join('; '));
        const bad = hex(SECRET, raw).toUpperCase();
        const w = verifyDelivery(delivery(sent, raw, `sha256=${bad}`, bad), 'unknown', SECRET);
        assert.equal(w.ok, false, 'an uppercase signature in whichever form arrives fails');
        assert.match(w.problems.join('; '), /uppercase hex/);
      }),
      fcParams({ numRuns: 30 }),
    );
    const raw = Buffer.from('{"event":"ticket.created"}');
    const none: CapturedDelivery = {
      receivedAt: 0,
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json' },
      raw,
      answered: 204,
    };
    assert.match(
      verifyDelivery(none, 'unknown', SECRET).problems[0]!,
      /no signature header at all/,
    );
  });
});
