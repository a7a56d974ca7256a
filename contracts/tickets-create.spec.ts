/** Ticket creation: documented status, timestamps, SLA, echoed fields; U2/U3/U5 probes. */
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { readableTicket, requester, skipIfReadOnly } from './helpers.ts';

test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

test.describe('create ticket', () => {
  test('a new ticket is open, echoes priority and requester, has UTC timestamps and an SLA', {
    tag: [
      '@ticket.created-status-open',
      '@ticket.timestamps-utc',
      '@ticket.sla-present',
      '@ticket.priority-echoed',
      '@ticket.requester-echoed',
      '@exchange.documented-status',
      '@exchange.ratelimit-headers',
      '@exchange.content-type',
    ],
  }, async ({ api, verdict, tag, probe }) => {
    // The creation of the worker's shared ticket (priority high, this requester): made by the
    // first test that needs it, here if none did yet — a ticket of its own would only cost a
    // creation and a clean-up close on the key's budget.
    const ex = (await readableTicket(api, tag)).created;
    probe('U5', 'create-status', ex.response?.status ?? null);
    probe('U5', 'create-location-header', ex.response?.headers.location !== undefined);
    verdict.check('tickets.status-code', ex, { expected: [201], what: 'POST /v1/tickets' });
    verdict.check('ticket.created-status-open', ex);
    verdict.check('ticket.timestamps-utc', ex);
    verdict.check('ticket.sla-present', ex);
    verdict.check('ticket.priority-echoed', ex, { sent: 'high' });
    verdict.check('ticket.requester-echoed', ex, { sent: requester });
    need(ex.response?.status, 'creation answered').toBeDefined();
  });

  test('due times are ordered by priority (high < normal < low)', {
    tag: ['@ticket.sla-by-priority', '@ticket.sla-priority-order'],
  }, async ({ api, verdict, tag, probe }) => {
    const make = (priority: 'low' | 'normal' | 'high') =>
      api.call('post', '/v1/tickets', {
        body: { subject: tag.subject(`SLA ${priority}`), requester, priority, tags: tag.tags },
      });
    // High: the worker's shared ticket's creation (priority high); normal and low made here.
    const high = (await readableTicket(api, tag)).created;
    const [normal, low] = [await make('normal'), await make('low')];
    const hours = (e: { response?: { json?: unknown } }) => {
      const t = e.response?.json as
        | { created_at?: string; sla?: { first_response_due?: string } }
        | undefined;
      return t?.sla
        ? (Date.parse(t.sla.first_response_due ?? '') - Date.parse(t.created_at ?? '')) / 3.6e6
        : null;
    };
    probe(
      'SLA',
      'first-response-hours',
      [hours(high), hours(normal), hours(low)],
      'first response target hours (high, normal, low)',
    );
    verdict.check('ticket.sla-by-priority', undefined, { high, normal, low });
    verdict.check('ticket.sla-priority-order', undefined, { high, normal, low });
    need(high.response?.status).toBeDefined();
  });

  test('default priority (U2) and which requester key is required (U3)', async ({
    api,
    tag,
    probe,
    verdict,
  }) => {
    // No priority sent: the email-only creation shows the default priority too, when accepted;
    // only a deployment that refuses it gets a creation of its own for that.
    const emailOnly = await api.send('POST', '/v1/tickets', {
      body: { subject: tag.subject('email only'), requester: { email: 'e@example.com' } },
    });
    const accepted = (emailOnly.status ?? 0) >= 200 && (emailOnly.status ?? 0) < 300;
    const none = accepted
      ? emailOnly
      : await api.call('post', '/v1/tickets', {
          body: { subject: tag.subject('no priority'), requester },
        });
    probe('U2', 'default-priority', none.json?.priority ?? null);
    const nameOnly = await api.send('POST', '/v1/tickets', {
      body: { subject: tag.subject('name only'), requester: { name: 'Nameless' } },
    });
    probe('U3', 'email-only-requester-status', emailOnly.status);
    probe('U3', 'name-only-requester-status', nameOnly.status);
    verdict.check('tickets.status-code', emailOnly, {
      expected: [201],
      what: 'creation with an email-only requester',
    });
    verdict.check('validation.status-422', nameOnly, {
      what: 'creation with a name-only requester',
    });
    need(none.status).toBeDefined();
  });
});
