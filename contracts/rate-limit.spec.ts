/**
 * The values of the X-RateLimit headers (core/checks/catalogue/rate-limit-values.ts). Every
 * exchange of the suite gets those checks at the end of its test; this test makes sure one key's
 * quick run of requests is among them — enough answers within a second or two that a Remaining
 * that does not fall, or grants beyond a Remaining of 0, show against the most refill the Limit
 * allows — and a write between two reads with the main key, so a Limit that differs between reads
 * and writes shows too. The quick run uses the second workspace's key where there is one (a
 * Team-plan key on the reference deployment: a slower refill shows a frozen Remaining sooner, and
 * the gate's main key keeps its budget). 15 reads are enough: even a Team key's refill (2 a
 * second) over a busy machine's second or two, by the Date headers, is far below 14 grants, so a
 * frozen or over-granting Remaining still shows; about 18 requests in all (issue 25: a gate run
 * fits a Team burst).
 */
import { test } from './fixtures.ts';
import { createTicket } from './helpers.ts';
import { need } from './need.ts';

const READS = 15;

test.describe('rate-limit header values', () => {
  test('a quick run of reads and a write: one Limit per key, Remaining never below 0 and falling with each request', {
    tag: [
      '@ratelimit.limit-stable',
      '@ratelimit.values-in-range',
      '@ratelimit.grants-within-remaining',
      '@ratelimit.remaining-falls',
      '@exchange.ratelimit-headers',
    ],
  }, async ({ api, tag, target }) => {
    const quick = target.keys.otherWorkspace ? api.withKey(target.keys.otherWorkspace) : api;
    let answered = 0;
    // One after another, on purpose: the sequence checks only use requests sent after the
    // previous answer arrived.
    for (let i = 0; i < READS; i++) {
      const ex = await quick.send('GET', '/v1/tickets', { query: { limit: 1 } });
      if (ex.status === 200) answered++;
    }
    if (!target.cfg.readOnly) {
      await api.send('GET', '/v1/tickets', { query: { limit: 1 } });
      const created = await createTicket(api, tag, 'rate-limit header values');
      await api.send('GET', '/v1/tickets', { query: { limit: 1 } });
      need(created.status, 'the write was answered').toBeDefined();
    }
    // The fixture applies the rate-limit checks to every answer at the end of the test.
    need(answered, 'the reads were answered 200').toBe(READS);
  });
});
