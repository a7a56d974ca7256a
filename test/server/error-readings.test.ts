/**
 * The readings of the error gaps and of the resources beyond tickets (server/readings/errors.ts):
 * each changes the answer it names, and every other answer of the same requests stays ours.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { makeService, newTicket } from './harness.ts';

type Svc = ReturnType<typeof makeService>;
const running: Svc[] = [];
after(() => Promise.all(running.map((s) => s.close())));
const serve = (...readings: string[]) => {
  const s = makeService({ readings });
  running.push(s);
  return s;
};

/** The answers every reading of this file may change, from one deployment. */
async function answers(s: Svc) {
  const full = s.ws.team.keys.full;
  const t = (await s.call('POST', '/v1/tickets', full, newTicket())).json;
  const foreign = (await s.call('POST', '/v1/tickets', s.ws.growth.keys.full, newTicket())).json;
  const contact = await s.call('POST', '/v1/contacts', full, { email: 'grace@example.com' });
  const noKey = await s.call('GET', '/v1/tickets');
  const badKey = await s.call('GET', '/v1/tickets', 'stk_full_not_a_key');
  const readOnly = await s.call('POST', '/v1/tickets', s.ws.team.keys.readOnly, newTicket());
  const invalid = await s.call('POST', '/v1/tickets', full, { requester: { email: 'a@b.io' } });
  const malformed = await s.call('POST', '/v1/tickets', full, '{"subject": "half",');
  const form = await s.call('POST', '/v1/tickets', full, 'subject=x', {
    'content-type': 'application/x-www-form-urlencoded',
  });
  const unknown = await s.call('GET', '/v1/tickets/tkt_never_issued', full);
  const other = await s.call('GET', `/v1/tickets/${foreign.id}`, full);
  const macros = await s.call('GET', '/v1/macros', full);
  const list = await s.call('GET', '/v1/tickets', full);
  return {
    ticket: t.status,
    contact: contact.status,
    macros: macros.status,
    noKey: [noKey.status, noKey.headers['www-authenticate'] ?? null],
    badKey: [badKey.status, badKey.headers['www-authenticate'] ?? null],
    // The code wherever the error body carries one.
    readOnly: [readOnly.status, readOnly.json?.code ?? readOnly.json?.error?.code ?? null],
    invalid: invalid.status,
    malformed: malformed.status,
    form: form.status,
    unknown: unknown.status,
    other: [other.status, other.text.includes(foreign.subject) && other.status !== 200],
    errorType: String(unknown.headers['content-type']).split(';')[0],
    deprecation: [noKey.headers.deprecation ?? null, list.headers.sunset ?? null],
  };
}

const EXPECTED: Record<string, Partial<Awaited<ReturnType<typeof answers>>>> = {
  'U10=contact-created-200': { contact: 200 },
  'U10=no-resources': { contact: 404, macros: 404 },
  'U16=error-object': { errorType: 'application/json' },
  // Plain text carries no error code.
  'U16=plain-text': { errorType: 'text/plain', readOnly: [403, null] },
  'U17=403': { noKey: [403, 'Bearer realm="v1"'] },
  'U17=no-challenge': { noKey: [401, null], badKey: [401, null] },
  'U18=403': { badKey: [403, 'Bearer realm="v1", error="invalid_token"'] },
  'U19=401': { readOnly: [401, 'insufficient_scope'] },
  'U19=404': { readOnly: [404, 'insufficient_scope'] },
  'U19=code-forbidden': { readOnly: [403, 'forbidden'] },
  'U20=400': { invalid: 400 },
  'U20=malformed-422': { malformed: 422 },
  'U20=media-type-400': { form: 400 },
  'U21=foreign-403': { other: [403, false] },
  'U21=unknown-400': { unknown: 400 },
  'U27=deprecation-headers': {
    deprecation: ['@1767225600', 'Thu, 01 Jul 2027 00:00:00 GMT'],
  },
};

describe('error readings change the answer they name, and only that', () => {
  let ours: Awaited<ReturnType<typeof answers>>;
  test('our assumptions', async () => {
    ours = await answers(serve());
    assert.deepEqual(ours, {
      ticket: 'open',
      contact: 201,
      macros: 200,
      noKey: [401, 'Bearer realm="v1"'],
      badKey: [401, 'Bearer realm="v1", error="invalid_token"'],
      readOnly: [403, 'insufficient_scope'],
      invalid: 422,
      malformed: 400,
      form: 415,
      unknown: 404,
      other: [404, false],
      errorType: 'application/problem+json',
      deprecation: [null, null],
    });
  });

  for (const [reading, changed] of Object.entries(EXPECTED)) {
    test(reading, async () => {
      assert.deepEqual(await answers(serve(reading)), { ...ours, ...changed });
    });
  }
});

describe('the error body of each reading of U16', () => {
  const unknownTicket = async (s: Svc) =>
    s.call('GET', '/v1/tickets/tkt_never_issued', s.ws.team.keys.full);
  const invalidCreate = async (s: Svc) =>
    s.call('POST', '/v1/tickets', s.ws.team.keys.full, { requester: { email: 'a@b.io' } });

  test('error-object: {error: {code, message, request_id, details}}', async () => {
    const s = serve('U16=error-object');
    const r = await unknownTicket(s);
    assert.equal(r.json.error.code, 'not_found');
    assert.equal(typeof r.json.error.message, 'string');
    assert.match(r.json.error.request_id, /^req_/);
    const v = await invalidCreate(s);
    assert.deepEqual(
      v.json.error.details.map((d: { field: string }) => d.field),
      ['subject'],
    );
  });

  test('plain-text: a line of text, each invalid field below it; no JSON', async () => {
    const s = serve('U16=plain-text');
    const r = await unknownTicket(s);
    assert.equal(r.text, '404 Not Found: No ticket with this id.\n');
    assert.equal(r.json, undefined);
    const v = await invalidCreate(s);
    assert.match(v.text, /^422 Unprocessable Content: .*\nsubject: /);
    // A request refused before any route sees it is written the same way.
    const badUrl = await s.call('GET', '/v1/%E0%A4%A', s.ws.team.keys.full);
    assert.equal(badUrl.status, 400);
    assert.match(String(badUrl.headers['content-type']), /^text\/plain/);
  });

  test('a 2xx answer is JSON under every reading', async () => {
    const s = serve('U16=plain-text');
    const r = await s.call('GET', '/v1/tickets', s.ws.team.keys.full);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
  });
});
