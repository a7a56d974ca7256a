/**
 * Transport and the headers every exchange carries: HTTPS for any non-loopback target
 * (documented: all API traffic is JSON over HTTPS), the X-RateLimit headers on 2xx and 4xx alike,
 * documented media types and statuses, and the deprecation headers a target may announce (U27).
 * The suite-wide exchange checks run on every exchange of every test; this file makes sure each
 * read operation is among them (and records whether the resources beyond tickets answer, U10), and
 * an unknown path's error answer.
 */
import { operations } from '../core/spec/operations.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { observeCrossCutting, readableContact, readableTicket } from './helpers.ts';

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
    // The X-RateLimit values' sequence checks judge every answer of the suite over the worker's
    // history (one Limit per key, Remaining in range and falling with each grant): this quick run
    // of reads is where a `--grep` for them finds a test — the standalone quick run of 18
    // requests they once had sent nothing the suite's other runs do not (issue 25; every
    // rate-limit header fault is still caught, by many tests).
    tag: [
      ...EXCHANGE_TAGS,
      '@resources.status-code',
      '@ratelimit.limit-stable',
      '@ratelimit.values-in-range',
      '@ratelimit.grants-within-remaining',
      '@ratelimit.remaining-falls',
    ],
  }, async ({ api, verdict, tag, probe, exchanges, target }) => {
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
      const ex = await api.send(op.method, p);
      // The resources beyond tickets (U10): whether each list and the report answers, and as
      // documented — read here, where every read is sent once (issue 25), not again by a test
      // of their own.
      if (op.pathParams.length === 0 && !op.template.startsWith('/v1/tickets')) {
        probe('U10', `get-status:${op.template}`, ex.status ?? null);
        verdict.check('resources.status-code', ex, { expected: [200], what: `GET ${op.template}` });
      }
    }
    const seen = exchanges
      .map((e) => e.response?.headers)
      .filter((h) => h?.deprecation !== undefined || h?.sunset !== undefined);
    probe('U27', 'read-deprecation-headers', seen.length ? seen : null);
    need(exchanges.length, 'every read operation was called').toBeGreaterThan(2);
  });

  test('error answers carry the same headers and a problem media type', {
    tag: EXCHANGE_TAGS,
  }, async ({ api }) => {
    // The error answers of the operations — an unknown ticket, no key, an invalid query or body —
    // are every test's that provokes them (unknown ticket, the rule matrix, list tickets' and
    // creation input validation), each judged by every exchange check like any answer: this test
    // adds the one no other sends, a path the API does not have (issue 25: no request sent twice).
    const unknownRoute = await api.send('GET', '/v1/no-such-resource');
    // The fixture applies every exchange check to this answer at the end of the test.
    need(unknownRoute.response, 'the target answered').toBeDefined();
  });
});
