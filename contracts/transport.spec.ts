/**
 * Transport and the headers every exchange carries: HTTPS for any non-loopback target
 * (documented: all API traffic is JSON over HTTPS), the X-RateLimit headers on 2xx and 4xx alike,
 * documented media types and statuses, and the deprecation headers a target may announce (U27).
 * The suite-wide exchange checks run on every exchange of every test; this file makes sure each
 * read operation and an error answer are among them.
 */
import { operations } from '../core/spec/operations.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { observeCrossCutting, readableContact, readableTicket, unknownId } from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));

const EXCHANGE_TAGS = [
  '@exchange.transport-secure',
  '@exchange.ratelimit-headers',
  '@exchange.content-type',
  '@exchange.documented-status',
  '@exchange.no-5xx',
  '@exchange.response-schema',
];

test.describe('transport', () => {
  test('the configured target is reached over HTTPS (or loopback)', {
    tag: ['@exchange.transport-secure'],
  }, async ({ api, verdict, probe, target }) => {
    const ex = await api.send('GET', '/v1/tickets', { query: { limit: 1 } });
    probe('transport', 'scheme', new URL(target.baseUrl).protocol.replace(':', ''));
    verdict.check('exchange.transport-secure', ex);
    need(ex.response, `the target answered (${ex.error ?? 'ok'})`).toBeDefined();
  });

  test('every read operation answers with the documented headers, media type and status', {
    tag: EXCHANGE_TAGS,
  }, async ({ api, tag, probe, exchanges, target }) => {
    // A read-only run reads objects that exist; otherwise the test makes its own.
    const firstOf = async (p: string) =>
      ((await api.send('GET', p, { query: { limit: 1 } })).json?.data?.[0]?.id as string) ?? 'none';
    const ids: Record<string, string> = target.cfg.readOnly
      ? { ticket_id: await firstOf('/v1/tickets'), contact_id: await firstOf('/v1/contacts') }
      : {
          ticket_id: (await readableTicket(api, tag)).id,
          contact_id: (await readableContact(api)).id,
        };
    for (const op of operations().filter((o) => o.scope === 'read')) {
      const p = op.template.replace(/\{([^}]+)\}/g, (_, k: string) =>
        encodeURIComponent(ids[k] ?? 'missing'),
      );
      // The fixture applies every exchange check to this answer at the end of the test.
      await api.send(op.method, p);
    }
    const seen = exchanges
      .map((e) => e.response?.headers)
      .filter((h) => h?.deprecation !== undefined || h?.sunset !== undefined);
    probe('U27', 'read-deprecation-headers', seen.length ? seen : null);
    need(exchanges.length, 'every read operation was called').toBeGreaterThan(2);
  });

  test('error answers carry the same headers and a problem media type', {
    tag: EXCHANGE_TAGS,
  }, async ({ api, target }) => {
    const errors = [
      await api.send('GET', `/v1/tickets/${unknownId()}`),
      await api.send('GET', '/v1/tickets', { key: null }),
      await api.send('GET', '/v1/tickets', { query: { limit: 0 } }),
      await api.send('GET', '/v1/no-such-resource'),
    ];
    if (!target.cfg.readOnly)
      errors.push(await api.send('POST', '/v1/tickets', { body: { subject: 'no requester' } }));
    // The fixture applies every exchange check to these answers at the end of the test.
    need(errors[0]!.response, 'the target answered').toBeDefined();
  });
});
