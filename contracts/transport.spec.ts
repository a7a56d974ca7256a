/**
 * Transport and the headers every exchange carries: HTTPS for any non-loopback target
 * (documented: all API traffic is JSON over HTTPS), the X-RateLimit headers on 2xx and 4xx alike,
 * documented media types and statuses, and the deprecation headers a target may announce (U27).
 * The suite-wide exchange checks run on every exchange of every test; this file makes sure each
 * read operation is among them (and records whether the resources beyond tickets answer, U10), and
 * an unknown path's error answer.
 */
import { createClient } from '../core/http/client.ts';
import { registerSecret } from '../core/redact.ts';
import type { Exchange } from '../core/http/exchange.ts';
import { undiciTransport } from '../core/http/undici-transport.ts';
import { type OperationSpec, operations } from '../core/spec/operations.ts';
import { BORROWED_REQUESTS } from './annotations.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { observeCrossCutting, readableContact, readableTicket, skipIfReadOnly } from './helpers.ts';

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

  test("an unknown path under the API prefix answers with the key's plan limit", {
    tag: [...EXCHANGE_TAGS, '@ratelimit.plan-limit'],
  }, async ({ api, needs, target, verdict, probe }) => {
    needs('otherWorkspaceKey');
    // A /v1 path no operation serves is still an API request: authenticated, and limited per key
    // (Limits: every response carries the key's X-RateLimit-Limit). A deployment that takes such a
    // request for one outside the API answers it from a keyless bucket instead. Sent with workspace B's key: off the run key's
    // burst, and on
    // the embedded deployment a Team key, whose 120/min no keyless bucket shares.
    const other = target.keys.otherWorkspace!;
    const ex = await api.withKey(other).send('GET', '/v1/no-such-resource');
    // The fixture applies every exchange check (ratelimit.plan-limit among them) to this answer.
    need(ex.response, `the target answered (${ex.error ?? 'ok'})`).toBeDefined();
    // Two more spellings of an unknown API path a service must not take for one outside the API:
    // the bare prefix, and an absolute-form request target (RFC 9112 §3.2.2: a server accepts
    // `GET http://host/v1/… HTTP/1.1`). A gateway in front may answer either itself (nginx: the
    // bare /v1 with a 301 to /v1/), without the service's headers: so they are sent outside the
    // fixture, and only an answer carrying X-RateLimit-Limit — the service's — is judged, by the
    // plan rule alone (a deployment that routes by the raw target misses exactly these two
    // spellings). Sent with a key the user declared under a plan, since the plan rule
    // judges no other, and never the run's key: its bucket is the run's budget (a gate
    // run takes at most the Team burst from it). The other workspace's key, else the read-only
    // key, which shares the run key's declared plan and has a bucket of its own.
    const declared = [other, target.keys.readOnly].find(
      (k) => k !== undefined && target.planOf(`Bearer ${k}`) !== undefined,
    );
    if (declared === undefined) {
      probe(
        'transport',
        'unknown-path-answer:no-declared-key',
        null,
        "not reachable on this target: neither the other workspace's key nor the read-only key is of a declared plan (HARNESS_TEAM_KEYS, …), so the bare /v1 and the absolute form are not sent",
      );
      return;
    }
    const spellings = [
      { id: 'bare-prefix', path: '/v1', absoluteForm: false },
      { id: 'absolute-form', path: '/v1/no-such-resource', absoluteForm: true },
    ];
    for (const s of spellings) {
      const sent = await createClient({
        baseUrl: target.baseUrl,
        transport: undiciTransport({ absoluteForm: s.absoluteForm }),
        key: declared,
        headers: { accept: 'application/json, application/problem+json' },
        timeoutMs: target.cfg.timeoutMs,
      }).send('GET', s.path);
      // The repro sends the same request target (curl --request-target).
      if (s.absoluteForm) sent.request.requestTarget = sent.request.url;
      const limit = sent.response?.headers['x-ratelimit-limit'];
      probe(
        'transport',
        `unknown-path-answer:${s.id}`,
        sent.response
          ? `${sent.response.status}${limit === undefined ? ', no X-RateLimit-Limit' : ''}`
          : null,
        !sent.response
          ? `not reachable on this target: ${sent.error ?? 'no answer'}`
          : limit === undefined
            ? 'not reachable on this target: answered without X-RateLimit-Limit, so not by the service (a gateway in front?)'
            : undefined,
      );
      if (limit !== undefined)
        verdict.check('ratelimit.plan-limit', sent, { planOf: target.planOf });
    }
  });

  test('every read operation answers with the documented headers, media type and status', {
    // The X-RateLimit values' sequence checks judge every answer of the suite over the worker's
    // history (one Limit per key, Remaining in range and falling with each grant): this quick run
    // of reads is where a `--grep` for them finds a test; a quick run of their own would send
    // nothing the suite's other runs do not (every rate-limit header fault is caught by many
    // tests).
    tag: [
      ...EXCHANGE_TAGS,
      '@resources.status-code',
      '@ratelimit.limit-stable',
      '@ratelimit.values-in-range',
      '@ratelimit.grants-within-remaining',
      '@ratelimit.remaining-falls',
    ],
  }, async ({ api, verdict, tag, probe, exchanges, history, target }) => {
    // A read this worker's other tests already sent with the run's key, and got a 2xx to, was
    // judged there by every exchange check: its answer (kept in the worker's history) is judged
    // here only by what this test adds, and it is not sent again (each request costs the key's budget). A read nobody sent,
    // or whose answer was not a 2xx, is sent here — whichever tests ran before, in any order.
    const auth = target.keys.full ? `Bearer ${target.keys.full}` : undefined;
    const answered = (op: OperationSpec) =>
      history.findLast(
        (h) =>
          h.operation?.operationId === op.operationId &&
          h.request.method === op.method &&
          h.request.headers.authorization === auth &&
          h.response !== undefined &&
          h.response.status >= 200 &&
          h.response.status < 300,
      );
    const reads = operations()
      .filter((o) => o.scope === 'read')
      .map((op) => ({ op, seen: auth === undefined ? undefined : answered(op) }));
    // A read-only run reads objects that exist; otherwise the test makes its own.
    const firstOf = async (p: string) =>
      ((await api.send('GET', p, { query: { limit: 1 } })).json?.data?.[0]?.id as string) ?? 'none';
    const idOf: Record<string, () => Promise<string>> = target.cfg.readOnly
      ? { ticket_id: () => firstOf('/v1/tickets'), contact_id: () => firstOf('/v1/contacts') }
      : {
          ticket_id: async () => (await readableTicket(api, tag)).id,
          contact_id: async () => (await readableContact(api)).id,
        };
    const ids = new Map<string, Promise<string>>();
    const idFor = (k: string) => {
      if (!ids.has(k)) ids.set(k, idOf[k]?.() ?? Promise.resolve('missing'));
      return ids.get(k)!;
    };
    const judged: Exchange[] = [];
    for (const { op, seen } of reads) {
      let ex = seen;
      if (!ex) {
        let p = op.template;
        for (const k of op.pathParams) p = p.replace(`{${k}}`, encodeURIComponent(await idFor(k)));
        // The fixture applies every exchange check to this answer at the end of the test.
        ex = await api.send(op.method, p);
      }
      judged.push(ex);
      // The resources beyond tickets (U10): whether each list and the report answers, and as
      // documented — read here, where every read is judged once, not again by a test
      // of their own.
      if (op.pathParams.length === 0 && !op.template.startsWith('/v1/tickets')) {
        probe('U10', `get-status:${op.template}`, ex.response?.status ?? null);
        verdict.check('resources.status-code', ex, { expected: [200], what: `GET ${op.template}` });
      }
    }
    const seen = [...exchanges, ...judged]
      .map((e) => e.response?.headers)
      .filter((h) => h?.deprecation !== undefined || h?.sunset !== undefined);
    probe('U27', 'read-deprecation-headers', seen.length ? [...new Set(seen)] : null);
    // What this test sends more in a run where the tests that sent those reads do not run.
    const borrowed = reads.filter((r) => r.seen).length;
    if (borrowed > 0)
      test.info().annotations.push({ type: BORROWED_REQUESTS, description: String(borrowed) });
    need(judged.length, 'every read operation was called').toBeGreaterThan(2);
  });

  test('a request refused for its rate says no request is left', {
    tag: ['@ratelimit.refused-none-left'],
  }, async ({ api, needs, target }) => {
    skipIfReadOnly(target, test.skip);
    needs('adminToken');
    // Every key of the run is paced to stay clear of a 429 (its budget), so no other test sees
    // one. A workspace of its own, made through the dashboard stand-in with custom limits of one
    // request a minute (an Enterprise plan's numbers are "custom"), is refused at its second
    // request at once: two or three requests, none with a key of the run's, sent as they are
    // (not paced, no 429 waited out). The fixture judges the refusal by every exchange check.
    const made = await target.admin('POST', '/admin/workspaces', {
      name: 'harness refused-none-left',
      plan: 'enterprise',
      rate: 1,
      burst: 1,
    });
    need(made.status, 'the admin surface made a workspace of one request a minute').toBe(201);
    const key: string = made.json.keys[0].key;
    registerSecret(key);
    const statuses: Array<number | undefined> = [];
    for (let i = 0; i < 3 && !statuses.includes(429); i++) {
      const ex = await api.send('GET', '/v1/tickets', { key, query: { limit: 1 }, pace: false });
      statuses.push(ex.response?.status);
    }
    // Which status refuses a request for its rate is not shown (U22): a target that refuses
    // with another has no 429 to judge here.
    test.skip(
      !statuses.includes(429),
      `not reached: a key allowed one request a minute was answered ${statuses.join(', ')}, no 429`,
    );
  });

  test('error answers carry the same headers and a problem media type', {
    tag: EXCHANGE_TAGS,
  }, async ({ api, target }) => {
    // The error answers of the operations — an unknown ticket, no key, an invalid query or body —
    // are every test's that provokes them (unknown ticket, the rule matrix, list tickets' and
    // creation input validation), each judged by every exchange check like any answer: this test
    // adds the two no other sends (no request is sent twice): a path the API does not have,
    // and one that does not percent-decode. The second is refused before any route sees it (a
    // framework's bad-URL answer), yet it answers a key like any other: the same X-RateLimit
    // headers, with the key's plan limit (a deployment could take such requests from the keyless
    // bucket, and no other test would see it). It names no operation of the spec, so no
    // operation's status list judges it. Sent with the read-only key where there is one (its
    // workspace's plan, its own bucket): the run's key has the Team burst to keep.
    const unknownRoute = await api.send('GET', '/v1/no-such-resource');
    const readOnly = target.keys.readOnly;
    const badUrl = await api.send('GET', '/v1/%E0%A4%A', readOnly ? { key: readOnly } : {});
    // The fixture applies every exchange check to these answers at the end of the test.
    need(unknownRoute.response, 'the target answered').toBeDefined();
    need(badUrl.response, 'the target answered a path that does not percent-decode').toBeDefined();
  });
});
