/**
 * The lax profile (server/lax.ts): the reference deployment validating only what the service
 * docs state — what the default profile refuses on our assumptions (U6, U20, U26) it accepts,
 * what the docs require it still refuses, and every answer stays a valid representation.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { validate } from '../../core/schemas/registry.ts';
import { makeService, newTicket } from './harness.ts';

const strict = makeService();
const lax = makeService({ readings: ['U26=no-limits', 'U6=ignore-wrong-types'] });
after(() => Promise.all([strict.close(), lax.close()]));
const keyOf = (s: typeof lax) => s.ws.team.keys.full;

const MiB = 1024 * 1024;

describe('lax profile: our assumed limits are not enforced', () => {
  for (const [what, body, strictStatus] of [
    ['a 256-character subject (U26)', newTicket({ subject: 'a'.repeat(256) }), 422],
    ['an empty subject (U26)', newTicket({ subject: '' }), 422],
    ['60 tags (U26)', newTicket({ tags: Array.from({ length: 60 }, (_, i) => `t${i}`) }), 422],
    [
      'a one-word subject of 2 MiB (no body limit)',
      newTicket({ subject: 'w'.repeat(2 * MiB) }),
      413,
    ],
    ['unknown fields', newTicket({ color: 'teal', nested: { deep: [1, 2] } }), 201],
  ] as const) {
    test(`create with ${what}: ${strictStatus} by default, 201 lax`, async () => {
      assert.equal(
        (await strict.call('POST', '/v1/tickets', keyOf(strict), body)).status,
        strictStatus,
      );
      const r = await lax.call('POST', '/v1/tickets', keyOf(lax), body);
      assert.equal(r.status, 201, r.text.slice(0, 300));
      assert.deepEqual(validate('Ticket', r.json), []);
      assert.equal(r.json.subject, body.subject, 'the subject is stored as sent');
    });
  }

  test('an update ignores wrong-typed fields and applies the rest (by default: 422)', async () => {
    for (const s of [strict, lax]) {
      const id = (await s.call('POST', '/v1/tickets', keyOf(s), newTicket())).json.id;
      let deep: unknown = 'x';
      for (let i = 0; i < 200; i++) deep = [deep];
      const r = await s.call('PATCH', `/v1/tickets/${id}`, keyOf(s), {
        subject: deep,
        tags: 'not-a-list',
        priority: 'high',
      });
      if (s === strict) {
        assert.equal(r.status, 422);
        continue;
      }
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(validate('Ticket', r.json), []);
      assert.equal(r.json.subject, 'Printer on fire', 'the wrong-typed subject is ignored');
      assert.deepEqual(r.json.tags, [], 'the wrong-typed tags are ignored');
      assert.equal(r.json.priority, 'high', 'the well-typed field is applied');
      const empty = await s.call('PATCH', `/v1/tickets/${id}`, keyOf(s), { subject: null });
      assert.equal(empty.status, 200, 'a patch left with nothing to apply is a no-op');
    }
  });
});

describe('lax profile: what the docs state is still enforced', () => {
  const key = keyOf(lax);
  for (const [what, body] of [
    ['no subject', { requester: { email: 'ada@example.com' } }],
    ['a subject that is not a string', newTicket({ subject: 42 })],
    ['no requester', { subject: 's' }],
    ['a requester that is not an object', newTicket({ requester: 'ada@example.com' })],
    ['a priority outside low, normal, high', newTicket({ priority: 'urgent' })],
    ['tags that are not strings', newTicket({ tags: [1, 2] })],
    ['a requester email that is not an email', newTicket({ requester: { email: 'nope' } })],
    [
      'a requester email longer than an email can be (254)',
      newTicket({ requester: { email: `${'a'.repeat(250)}@example.com` } }),
    ],
  ] as const) {
    test(`create with ${what}: 422`, async () => {
      const r = await lax.call('POST', '/v1/tickets', key, body);
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(validate('Problem', r.json), []);
    });
  }

  test('an update with a well-typed value the ticket cannot hold: 422, nothing applied', async () => {
    const id = (await lax.call('POST', '/v1/tickets', key, newTicket())).json.id;
    for (const patch of [{ priority: 'urgent', subject: 'changed' }, { status: 'archived' }]) {
      const r = await lax.call('PATCH', `/v1/tickets/${id}`, key, patch);
      assert.equal(r.status, 422, JSON.stringify(patch));
    }
    assert.equal((await lax.call('GET', `/v1/tickets/${id}`, key)).json.subject, 'Printer on fire');
  });

  test('malformed JSON is still 400, a non-JSON media type still 415', async () => {
    assert.equal((await lax.call('POST', '/v1/tickets', key, '{"subject":')).status, 400);
    const form = await lax.call('POST', '/v1/tickets', key, 'subject=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 415);
  });
});
