import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EXCHANGE_CHECKS } from '../../core/checks/catalogue/exchange.ts';
import { checks } from '../../core/checks/index.ts';
import type { NameOf } from '../../core/checks/types.ts';
import { CheckRegistry, defineCheck } from '../../core/checks/registry.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { registerSecret } from '../../core/redact.ts';
import { matchOperation } from '../../core/spec/operations.ts';

const SECRET = 'stk_full_supersecretvalue123';
registerSecret(SECRET, 'HARNESS_API_KEY');

function ex(
  status: number,
  headers: Record<string, string>,
  json?: unknown,
  method = 'POST',
  path = '/v1/tickets',
): Exchange {
  const url = `http://127.0.0.1:9/${path.replace(/^\//, '')}`;
  return {
    request: {
      method,
      url,
      headers: { authorization: `Bearer ${SECRET}` },
      body: '{"subject":"x"}',
    },
    response: { status, headers, bodyText: json === undefined ? '' : JSON.stringify(json), json },
    durationMs: 1,
    operation: matchOperation(method, url),
  };
}

const TICKET = {
  id: 'tkt_1',
  subject: 'Printer on fire',
  status: 'open',
  priority: 'high',
  requester: { email: 'ada@example.com', name: 'Ada Lovelace' },
  sla: { first_response_due: '2026-11-22T10:00:00Z' },
  created_at: '2026-11-22T09:00:00Z',
};

/** An exchange whose body is the given text (not necessarily JSON). */
function rawEx(status: number, bodyText: string, contentType = 'application/json'): Exchange {
  const e = ex(status, { ...RL, 'content-type': contentType });
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  e.response = { ...e.response!, bodyText, json };
  return e;
}

const RL = {
  'x-ratelimit-limit': '120',
  'x-ratelimit-remaining': '5',
  'x-ratelimit-reset': '1795338000',
};

describe('checks registry', () => {
  test('duplicate and unknown names are errors', () => {
    const c = defineCheck({
      name: 'a.b',
      provenance: 'assumed',
      rule: 'r',
      kind: 'scenario',
      run: () => undefined,
    });
    assert.throws(() => new CheckRegistry().register(c, c), /duplicate check name 'a.b'/);
    // A typo is a compile error (the names are a union derived from the registry) and, for a
    // name computed at run time, still an error rather than a silent no-op.
    // @ts-expect-error 'ticket.no-such-check' is not a check name
    assert.throws(() => checks.get('ticket.no-such-check'), /unknown check 'ticket.no-such-check'/);
    const v = new Verdict(checks, 't');
    // @ts-expect-error 'nope.nope' is not a check name
    assert.throws(() => v.check('nope.nope', undefined), /unknown check/);
  });

  test('every check has a provenance, a rule and a well-formed name', () => {
    for (const c of checks.all()) {
      assert.ok(['documented', 'assumed'].includes(c.provenance), c.name);
      assert.ok(c.rule.length > 10, `${c.name} rule`);
    }
  });

  test('a failure reads Received / Documented and carries a redacted curl repro', () => {
    const v = new Verdict(checks, 'demo');
    assert.equal(v.check('ticket.created-status-open', ex(201, RL, { status: 'new' })), false);
    const msg = v.fatalMessage(false) ?? '';
    assert.match(msg, /Received: {3}status "new"/);
    assert.match(msg, /Documented: status "open"/);
    assert.match(msg, /curl -i -X POST .*\$HARNESS_API_KEY/);
    assert.equal(msg.includes(SECRET), false, 'the key must not appear');
  });

  test('assumed failures are fatal only in strict mode', () => {
    const v = new Verdict(checks, 'demo');
    v.check('auth.www-authenticate', ex(401, RL, {}));
    assert.equal(v.fatalMessage(false), undefined);
    assert.match(v.fatalMessage(true) ?? '', /Assumed:/);
  });

  test('the every-exchange checks each catch their deviation and pass the correct exchange', () => {
    const good = ex(201, { ...RL, 'content-type': 'application/json' }, TICKET);
    const cases: Array<[NameOf<(typeof EXCHANGE_CHECKS)[number]>, Exchange]> = [
      ['exchange.ratelimit-headers', ex(404, { 'content-type': 'application/problem+json' }, {})],
      ['exchange.content-type', ex(404, { ...RL, 'content-type': 'application/json' }, {})],
      ['exchange.documented-status', ex(200, { ...RL, 'content-type': 'application/json' }, {})],
      ['exchange.no-5xx', ex(500, RL, {})],
      [
        'exchange.response-schema',
        ex(201, { ...RL, 'content-type': 'application/json' }, { id: 1 }),
      ],
    ];
    for (const [name, bad] of cases) {
      const v = new Verdict(checks, 't');
      assert.equal(v.check(name, bad), false, `${name} must fail`);
      assert.equal(v.check(name, good), true, `${name} must pass the correct exchange`);
    }
    const insecure: Exchange = {
      ...good,
      request: { ...good.request, url: 'http://api.example.com/v1/tickets' },
    };
    assert.equal(new Verdict(checks, 't').check('exchange.transport-secure', insecure), false);
  });

  test('an empty or non-JSON body fails the body checks instead of passing them unseen', () => {
    const html = rawEx(201, '<html>Welcome to nginx</html>', 'text/html');
    const empty = rawEx(201, '');
    const cut = rawEx(201, '{"id": "tkt_1", "subj');
    for (const bad of [html, cut]) {
      const v = new Verdict(checks, 't');
      assert.equal(
        v.check('exchange.json-body', bad),
        false,
        'a non-JSON body is not JSON traffic',
      );
      assert.equal(v.check('exchange.response-schema', bad), false, 'no schema holds for non-JSON');
      assert.equal(v.check('ticket.timestamps-utc', bad), false, 'no timestamps in that body');
    }
    const v = new Verdict(checks, 't');
    assert.equal(v.check('exchange.json-body', empty), true, 'an empty body is not non-JSON data');
    assert.equal(v.check('exchange.response-schema', empty), false, 'a 201 Ticket needs a body');
    assert.equal(v.check('ticket.timestamps-utc', empty), false, 'no timestamps in no body');
    assert.equal(v.failures('documented').length, 1, 'only the timestamps rule is documented');
    const fine = new Verdict(checks, 't');
    assert.equal(fine.check('ticket.timestamps-utc', ex(201, RL, TICKET)), true, 'valid ticket');
    assert.equal(fine.check('exchange.json-body', ex(204, RL)), true, 'a 204 has no body');
  });

  test('an error body that is not JSON leans on U16; a 2xx body that is not JSON fails the gate', () => {
    const v = new Verdict(checks, 't');
    const text = rawEx(404, '404 Not Found: No ticket with this id.\n', 'text/plain');
    assert.equal(v.check('exchange.json-body', text), false, 'reported');
    assert.equal(v.results[0]!.provenance, 'assumed', 'an assumption mismatch, not fatal');
    assert.match(v.results[0]!.failure!.expected, /judged on an assumption \(U16\)/);
    const page = new Verdict(checks, 't');
    page.check('exchange.json-body', rawEx(200, 'ok', 'text/plain'));
    assert.equal(page.results[0]!.provenance, 'documented', 'a 2xx body is JSON by the docs');
  });

  test('a JSON body labelled as another media type is not JSON traffic: json-body says so, content-type leaves it', () => {
    const list = '{"data":[],"has_more":false,"next_cursor":null}';
    const v = new Verdict(checks, 't');
    assert.equal(
      v.check('exchange.json-body', rawEx(200, list, 'text/plain; charset=utf-8')),
      false,
    );
    assert.equal(v.results[0]!.provenance, 'documented', 'a 2xx: all API traffic is JSON');
    assert.match(
      v.results[0]!.failure!.received,
      /200 with a JSON body labelled Content-Type text\/plain/,
    );
    assert.equal(
      v.check('exchange.content-type', rawEx(200, list, 'text/plain')),
      true,
      'one judge',
    );
    const ok = new Verdict(checks, 't');
    for (const type of [
      'application/json; charset=utf-8',
      'application/problem+json',
      'application/hal+json',
    ])
      assert.equal(ok.check('exchange.json-body', rawEx(200, list, type)), true, type);
    // No label names no other format: which JSON type, or none, is the assumed check's.
    const bare = rawEx(200, list);
    delete bare.response!.headers['content-type'];
    assert.equal(ok.check('exchange.json-body', bare), true);
    assert.equal(new Verdict(checks, 't').check('exchange.content-type', bare), false);
    // An error's JSON under text/plain leans on U16, as a non-JSON error body does.
    const err = new Verdict(checks, 't');
    err.check('exchange.json-body', rawEx(404, '{"code":"not_found"}', 'text/plain'));
    assert.equal(err.results[0]!.provenance, 'assumed');
  });

  test("another workspace's ticket answered as unknown in another error shape (U16) is the same answer", () => {
    const shaped = (id: string) =>
      ex(404, RL, { error: { code: 'not_found', message: `no ticket ${id}`, request_id: id } });
    const v = new Verdict(checks, 't');
    assert.equal(
      v.check('isolation.same-as-unknown', shaped('req_1'), {
        unknown: shaped('req_2'),
        operation: 'GET',
      }),
      true,
      'only the per-request id and text differ',
    );
    const other = ex(404, RL, { error: { code: 'gone' } });
    assert.equal(
      v.check('isolation.same-as-unknown', shaped('req_1'), { unknown: other, operation: 'GET' }),
      false,
      'another code is another answer',
    );
  });

  test('documented checks fail only on what the docs say; the assumed part is reported apart', () => {
    const documentedFailures = (run: (v: Verdict) => void) => {
      const v = new Verdict(checks, 't');
      run(v);
      return {
        documented: v.failures('documented').map((f) => f.check),
        assumed: v.failures('assumed').map((f) => f.check),
      };
    };
    // A close to "resolved" keeps the documented rule (resolved or closed); "closed" is U1.
    const resolved = ex(200, RL, { ...TICKET, status: 'resolved' }, 'POST', '/v1/tickets/t/close');
    assert.deepEqual(
      documentedFailures((v) => v.check('tickets.close', resolved)).documented,
      [],
      'a resolved ticket is closed as documented',
    );
    const stillOpen = ex(200, RL, TICKET, 'POST', '/v1/tickets/t/close');
    assert.equal(new Verdict(checks, 't').check('tickets.close', stillOpen), false, 'still open');

    // A 403 for a foreign ticket keeps the data isolated; only U21 (same as unknown) differs.
    const forbidden = ex(403, RL, { status: 403, code: 'forbidden' }, 'GET', '/v1/tickets/t');
    const unknown = ex(404, RL, { status: 404, code: 'not_found' }, 'GET', '/v1/tickets/u');
    const get = documentedFailures((v) => {
      v.check('isolation.get-other-workspace', forbidden, { ticket: TICKET });
      v.check('isolation.same-as-unknown', forbidden, { unknown, operation: 'GET' });
    });
    assert.deepEqual(get, { documented: [], assumed: ['isolation.same-as-unknown'] });
    const served = ex(200, RL, TICKET, 'GET', '/v1/tickets/t');
    const leaky = ex(404, RL, { status: 404, detail: TICKET.subject }, 'GET', '/v1/tickets/t');
    for (const bad of [served, leaky])
      assert.equal(
        new Verdict(checks, 't').check('isolation.get-other-workspace', bad, { ticket: TICKET }),
        false,
        'a served or leaked foreign ticket breaks isolation',
      );
    const write = documentedFailures((v) =>
      v.check('isolation.write-other-workspace', forbidden, { operation: 'PATCH' }),
    );
    assert.deepEqual(write.documented, [], 'a refused foreign write keeps isolation');

    // Priority affects the clock (documented); which way is an assumption.
    const at = (h: number, priority: string) =>
      ex(201, RL, {
        ...TICKET,
        priority,
        sla: {
          first_response_due: new Date(Date.parse(TICKET.created_at) + h * 3.6e6).toISOString(),
        },
      });
    const reversed = { high: at(24, 'high'), normal: at(4, 'normal'), low: at(1, 'low') };
    assert.deepEqual(
      documentedFailures((v) => {
        v.check('ticket.sla-by-priority', undefined, reversed);
        v.check('ticket.sla-priority-order', undefined, reversed);
      }),
      { documented: [], assumed: ['ticket.sla-priority-order'] },
    );
    const flat = { high: at(4, 'high'), normal: at(4, 'normal'), low: at(4, 'low') };
    assert.deepEqual(
      documentedFailures((v) => {
        v.check('ticket.sla-by-priority', undefined, flat);
        v.check('ticket.sla-priority-order', undefined, flat);
      }),
      { documented: ['ticket.sla-by-priority'], assumed: [] },
      'a clock that ignores priority breaks the documented rule, and only it (one due time has no order)',
    );
    // Tickets that do not carry the priority asked for (priority-echoed's verdict), or no due
    // time (sla-present's), say nothing about the clock.
    const allNormal = { high: at(4, 'normal'), normal: at(4, 'normal'), low: at(4, 'normal') };
    const bare = (priority: string) => ex(201, RL, { ...TICKET, priority, sla: {} });
    const noDue = { high: bare('high'), normal: bare('normal'), low: bare('low') };
    for (const a of [allNormal, noDue])
      assert.deepEqual(
        documentedFailures((v) => {
          v.check('ticket.sla-by-priority', undefined, a);
          v.check('ticket.sla-priority-order', undefined, a);
        }),
        { documented: [], assumed: [] },
      );

    // The documented webhook payload is the envelope; customer.replied's message is U13.
    const payload = {
      event: 'customer.replied',
      ticket: {
        id: 'tkt_1',
        subject: 's',
        status: 'open',
        priority: 'normal',
        url: 'https://x.example/t/1',
      },
      customer: { name: 'Ada', email: 'ada@example.com' },
    };
    const hook = documentedFailures((v) => {
      v.check('webhook.payload-schema', undefined, { event: 'customer.replied', payload });
      v.check('webhook.event-shape', undefined, { event: 'customer.replied', payload });
    });
    assert.deepEqual(hook, { documented: [], assumed: ['webhook.event-shape'] });
    const { customer: _c, ...noCustomer } = payload;
    assert.equal(
      new Verdict(checks, 't').check('webhook.payload-schema', undefined, {
        event: 'customer.replied',
        payload: noCustomer,
      }),
      false,
      'a payload without the documented customer breaks the documented shape',
    );
  });

  test('a missing response never passes a scenario check', () => {
    const v = new Verdict(checks, 't');
    const dead: Exchange = {
      request: { method: 'GET', url: 'http://127.0.0.1:9/v1/tickets', headers: {} },
      durationMs: 1,
      error: 'connect ECONNREFUSED',
    };
    assert.equal(v.check('auth.missing-key-rejected', dead), false);
    assert.match(v.failures()[0]!.received, /ECONNREFUSED/);
  });
});

describe('guessed routes never block the gate', () => {
  test('a documented check on an assumed route that answers 404 is reported as an assumption', () => {
    const v = new Verdict(checks, 'route');
    // POST /v1/tickets is assumed (U5): a deployment without it answers 404.
    assert.equal(v.check('ticket.created-status-open', ex(404, RL, { status: 404 })), false);
    const r = v.results[0]!;
    assert.equal(r.provenance, 'assumed', 'demoted to assumed');
    assert.match(
      r.failure!.expected,
      /judged on an assumption \(U5\): the assumed route POST \/v1\/tickets answered 404/,
    );
    assert.equal(v.fatalMessage(false), undefined, 'not fatal unless strict');
  });

  test('the same documented check on an existing route still fails the gate', () => {
    const v = new Verdict(checks, 'route');
    v.check('ticket.created-status-open', ex(201, RL, { status: 'new' }));
    assert.equal(v.results[0]!.provenance, 'documented', 'stays documented');
    assert.match(v.fatalMessage(false) ?? '', /documented rule broken/);
  });
});
