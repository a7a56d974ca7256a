/**
 * Invalid input: each required field missing, wrong enums and types, malformed JSON, a wrong media
 * type, an oversized body and over-long fields → a 4xx (documented: standard status codes, never
 * a 5xx) with a problem body (U16) and the assumed statuses (U20, U26); unknown tickets → 404 (U21).
 */
import { test } from './fixtures.ts';
import { need } from './need.ts';
import {
  MISSING_ID,
  observeCrossCutting,
  readableTicket,
  skipIfReadOnly,
  requester,
  unknownId,
} from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

const EXCHANGE_TAGS = [
  '@exchange.no-5xx',
  '@exchange.content-type',
  '@exchange.ratelimit-headers',
  '@validation.problem-body',
];

interface Case {
  name: string;
  body: unknown;
  /** The field the problem's errors[] should name (or one of them); none when the whole body is wrong. */
  field?: string | readonly string[];
  /** Documented rule (required field, enum, type of the creation input) or only assumed. */
  documented: boolean;
}

const subject = 'validation case';
const CREATE_CASES: Case[] = [
  { name: 'subject missing', body: { requester }, field: 'subject', documented: true },
  { name: 'requester missing', body: { subject }, field: 'requester', documented: true },
  // Both required fields are missing: naming either shows invalid fields are named (each one
  // alone is its own case above).
  { name: 'empty object', body: {}, field: ['subject', 'requester'], documented: true },
  {
    name: 'requester.email missing (U3)',
    body: { subject, requester: { name: 'No Email' } },
    field: 'requester.email',
    documented: false,
  },
  {
    name: 'priority not in the enum',
    body: { subject, requester, priority: 'urgent' },
    field: 'priority',
    documented: true,
  },
  {
    name: 'subject a number',
    body: { subject: 123, requester },
    field: 'subject',
    documented: true,
  },
  {
    name: 'requester a string',
    body: { subject, requester: 'ada@example.com' },
    field: 'requester',
    documented: true,
  },
  {
    name: 'tags a string',
    body: { subject, requester, tags: 'vip' },
    field: 'tags',
    documented: true,
  },
  {
    name: 'tags of numbers',
    body: { subject, requester, tags: [1, 2] },
    field: 'tags',
    documented: true,
  },
  {
    name: 'message a number',
    body: { subject, requester, message: 42 },
    field: 'message',
    documented: true,
  },
  { name: 'body an array', body: [{ subject, requester }], documented: true },
  {
    name: 'subject empty (U26)',
    body: { subject: '', requester },
    field: 'subject',
    documented: false,
  },
];

test.describe('creation input validation', () => {
  for (const c of CREATE_CASES) {
    test(`${c.name} → 422 problem`, {
      tag: [
        '@validation.invalid-rejected',
        '@validation.status-422',
        '@validation.error-field-named',
        '@validation.problem-body',
        // requester missing is where a careless deployment dereferences undefined
        ...(c.name === 'requester missing' ? ['@exchange.no-5xx'] : []),
      ],
    }, async ({ api, verdict, probe }) => {
      const ex = await api.send('POST', '/v1/tickets', { body: c.body });
      const what = `creation with ${c.name}`;
      // Which 4xx (U20) is judged where the input was rejected at all: an accepted one is the
      // documented rule's verdict (where there is one).
      const rejected = c.documented
        ? verdict.check('validation.invalid-rejected', ex, { what })
        : true;
      if (rejected) verdict.check('validation.status-422', ex, { what });
      verdict.check('validation.problem-body', ex);
      if (c.field) verdict.check('validation.error-field-named', ex, { field: c.field });
      if (c.name === 'subject missing') {
        probe('U20', 'validation-failure-status', ex.status ?? null);
        const j = ex.json as unknown;
        probe('U16', 'problem-keys-422', j && typeof j === 'object' ? Object.keys(j).sort() : null);
        probe('U16', 'problem-content-type', ex.response?.headers['content-type'] ?? null);
      }
      need(ex.response, 'the target answered').toBeDefined();
    });
  }

  test('malformed JSON → 400 problem', {
    tag: ['@validation.malformed-400', '@validation.invalid-rejected', ...EXCHANGE_TAGS],
  }, async ({ api, verdict, probe }) => {
    const ex = await api.send('POST', '/v1/tickets', {
      // A Buffer: Playwright re-encodes a non-JSON *string* sent as application/json.
      raw: Buffer.from('{"subject": "half a body",'),
    });
    probe('U20', 'malformed-json-status', ex.status ?? null);
    const j = ex.json as unknown;
    probe('U16', 'problem-keys-400', j && typeof j === 'object' ? Object.keys(j).sort() : null);
    verdict.check('validation.invalid-rejected', ex, { what: 'a malformed JSON body' });
    verdict.check('validation.malformed-400', ex, { what: 'a malformed JSON body' });
    verdict.check('validation.problem-body', ex);
    need(ex.response, 'the target answered').toBeDefined();
  });

  test('a body that is not JSON → 415 problem', {
    tag: ['@validation.invalid-rejected', '@tickets.status-code', ...EXCHANGE_TAGS],
  }, async ({ api, verdict, probe }) => {
    const ex = await api.send('POST', '/v1/tickets', {
      raw: Buffer.from('subject=hello&requester=ada@example.com'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    probe('U20', 'non-json-media-type-status', ex.status ?? null);
    verdict.check('validation.invalid-rejected', ex, { what: 'a form-encoded body' });
    verdict.check('tickets.status-code', ex, { expected: [415], what: 'a form-encoded body' });
    verdict.check('validation.problem-body', ex);
    need(ex.response, 'the target answered').toBeDefined();
  });

  test('a body over 1 MiB → 413; just under 1 MiB is accepted (U26)', {
    tag: ['@validation.too-large-413', '@tickets.status-code', ...EXCHANGE_TAGS],
  }, async ({ api, verdict, tag, probe }) => {
    const MiB = 1024 * 1024;
    const json = JSON.stringify({
      subject: tag.subject('padded body'),
      requester,
      tags: tag.tags,
    });
    // Insignificant whitespace pads a valid body to an exact size.
    const padded = (size: number) =>
      Buffer.from(json.slice(0, -1) + ' '.repeat(size - json.length) + '}');
    const under = await api.send('POST', '/v1/tickets', { raw: padded(MiB - 1024) });
    const over = await api.send('POST', '/v1/tickets', { raw: padded(MiB + 1024) });
    probe('U26', 'body-under-1mib-status', under.status ?? under.error ?? null);
    probe('U26', 'body-over-1mib-status', over.status ?? over.error ?? null);
    verdict.check('tickets.status-code', under, {
      expected: [201],
      what: 'a valid body of 1 MiB - 1 KiB',
    });
    verdict.check('validation.too-large-413', over, { what: 'a body of 1 MiB + 1 KiB' });
    verdict.check('validation.problem-body', over);
    need(over.response ?? over.error, 'the target answered or closed the connection').toBeDefined();
  });

  test('subject of 255 characters is accepted, 256 rejected (U26)', {
    tag: ['@validation.status-422', '@tickets.status-code', '@validation.problem-body'],
  }, async ({ api, verdict, probe }) => {
    const ok = await api.send('POST', '/v1/tickets', {
      body: { subject: 'a'.repeat(255), requester },
    });
    const long = await api.send('POST', '/v1/tickets', {
      body: { subject: 'a'.repeat(256), requester },
    });
    probe('U26', 'subject-255-status', ok.status ?? null);
    probe('U26', 'subject-256-status', long.status ?? null);
    verdict.check('tickets.status-code', ok, { expected: [201], what: 'a 255-character subject' });
    verdict.check('validation.status-422', long, { what: 'a 256-character subject' });
    verdict.check('validation.problem-body', long);
    need(ok.response, 'the target answered').toBeDefined();
  });

  test('message input: body missing, empty or author unknown → 422; an update with a field of the wrong type → 422 (U6)', {
    tag: ['@validation.status-422', '@validation.error-field-named', '@validation.problem-body'],
  }, async ({ api, verdict, tag }) => {
    // Invalid messages, refused: sent to the worker's shared ticket (no ticket made for
    // them alone: each costs the key's budget). One a deployment wrongly stored would change only its messages (and perhaps
    // its status), which none of the checks reading that ticket looks at — its id, subject,
    // priority and creation time, its absence from another workspace's lists.
    const t = await readableTicket(api, tag);
    const p = `/v1/tickets/${encodeURIComponent(t.id)}/messages`;
    for (const [body, field] of [
      [{ author: 'agent' }, 'body'],
      [{ body: '', author: 'agent' }, 'body'],
      [{ body: 'hi', author: 'bot' }, 'author'],
      [{ body: 'hi' }, 'author'],
    ] as Array<[Record<string, unknown>, string]>) {
      const ex = await api.send('POST', p, { body });
      verdict.check('validation.status-422', ex, { what: `message ${JSON.stringify(body)}` });
      verdict.check('validation.error-field-named', ex, { field });
      verdict.check('validation.problem-body', ex);
    }
    // A field of the wrong type beside one that changes nothing (the priority it was created
    // with): refused as we assume (U6), or ignored — the update payload is not shown — leaving
    // the ticket as it was. Tags, which no check reading this ticket looks at.
    const update = await api.send('PATCH', `/v1/tickets/${encodeURIComponent(t.id)}`, {
      body: { tags: 'vip', priority: 'high' },
    });
    verdict.check('validation.status-422', update, { what: 'an update whose tags are a string' });
    verdict.check('validation.error-field-named', update, { field: 'tags' });
    need(t.id, 'the ticket was created').not.toBe(MISSING_ID);
  });
});

test.describe('unknown ticket', () => {
  test('get, update, close and reply on an unknown ticket → 404 problem', {
    tag: ['@validation.unknown-404', ...EXCHANGE_TAGS],
  }, async ({ api, verdict, probe }) => {
    const id = unknownId();
    const calls = [
      await api.send('GET', `/v1/tickets/${id}`),
      await api.send('PATCH', `/v1/tickets/${id}`, { body: { subject: 'nobody' } }),
      await api.send('POST', `/v1/tickets/${id}/close`),
      await api.send('POST', `/v1/tickets/${id}/messages`, {
        body: { body: 'anyone?', author: 'agent' },
      }),
    ];
    probe(
      'U21',
      'unknown-ticket-statuses',
      calls.map((c) => c.status ?? null),
    );
    for (const ex of calls) {
      verdict.check('validation.unknown-404', ex, {
        what: `${ex.request.method} of an unknown ticket`,
      });
      verdict.check('validation.problem-body', ex);
    }
    need(calls[0]!.response, 'the target answered').toBeDefined();
  });
});
