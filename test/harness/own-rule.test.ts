/**
 * One fault, one failure, at the level of single checks: a check judges its own rule, not the
 * deployment's normal behaviour (a status it moves itself, an SLA sweep) nor what another check
 * already judges (a missing due time, a list without its envelope, more grants than any token).
 * Each case pairs the situation that used to fail the check with the break it must still catch.
 * The detection matrix (detection.test.ts) proves the same over the whole suite per fault.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { matchesFilter } from '../../core/checks/catalogue/ticket-lists.ts';
import { listRows } from '../../core/http/list-page.ts';
import { judgeFault } from '../../run/detection-judge.ts';
import { detectionArea, detectionMarkdown } from '../../run/detection.ts';
import type { CheckResult } from '../../core/checks/verdict.ts';
import type { TestRow } from '../../contracts/collect.ts';

const answer = (status: number, json?: unknown, method = 'GET', path = '/v1/tickets/tkt_1') =>
  ({
    request: { method, url: `http://127.0.0.1:9${path}`, headers: {} },
    response: { status, headers: {}, bodyText: JSON.stringify(json ?? ''), json },
    durationMs: 1,
  }) as Exchange;

const ticket = (o: Record<string, unknown> = {}) => ({
  id: 'tkt_1',
  subject: '[harness r1] isolation: writes',
  status: 'open',
  priority: 'high',
  created_at: '2026-11-22T09:00:00Z',
  sla: { first_response_due: '2026-11-22T10:00:00Z' },
  ...o,
});

const holds = (name: Parameters<Verdict['check']>[0], ex: Exchange | undefined, args?: unknown) =>
  (new Verdict(checks, 't').check as (n: string, e: Exchange | undefined, a?: unknown) => boolean)(
    name,
    ex,
    args,
  );

describe('isolation.foreign-unchanged tells the deployment’s own changes from B’s', () => {
  const takenOver = 'taken over by workspace B 1a2b3c4d';
  const writes = (refused: boolean) => [
    { operation: 'PATCH /v1/tickets/{id}', sets: { subject: takenOver, priority: 'low' }, refused },
    { operation: 'POST /v1/tickets/{id}/close', sets: { status: 'closed' }, refused },
  ];

  test('a status the deployment moved itself (new → open; both tickets) is not B’s doing', () => {
    // Created as `new`, read as open: on the ticket B wrote and on its untouched twin alike.
    const after = answer(200, ticket({ status: 'open', updated_at: '2026-11-22T09:00:05Z' }));
    assert.equal(
      holds('isolation.foreign-unchanged', after, { writes: writes(true), twin: ticket() }),
      true,
    );
    // An auto-close that closed both is the deployment's too.
    const closed = answer(200, ticket({ status: 'closed' }));
    assert.equal(
      holds('isolation.foreign-unchanged', closed, {
        writes: writes(true),
        twin: ticket({ status: 'closed' }),
      }),
      true,
    );
  });

  test('a refused write whose value shows on the ticket (and not on the twin) fails', () => {
    const v = new Verdict(checks, 't');
    const after = answer(200, ticket({ subject: takenOver }));
    assert.equal(
      v.check('isolation.foreign-unchanged', after, { writes: writes(true), twin: ticket() }),
      false,
    );
    assert.match(
      v.failures()[0]!.received,
      /subject "taken over by workspace B.*refused, applied anyway/,
    );
    const closed = answer(200, ticket({ status: 'closed' }));
    assert.equal(
      holds('isolation.foreign-unchanged', closed, { writes: writes(true), twin: ticket() }),
      false,
    );
  });

  test('an accepted write is isolation.write-other-workspace’s verdict, not this one’s', () => {
    const after = answer(200, ticket({ subject: takenOver, status: 'closed' }));
    assert.equal(
      holds('isolation.foreign-unchanged', after, { writes: writes(false), twin: ticket() }),
      true,
    );
    assert.equal(
      holds('isolation.write-other-workspace', answer(200, ticket(), 'PATCH'), {
        operation: 'PATCH /v1/tickets/{id}',
      }),
      false,
    );
  });
});

describe('isolation.rules-own-workspace judges only the tag workspace A’s rule adds', () => {
  const created = (tags: unknown) => answer(201, ticket({ tags }), 'POST', '/v1/tickets');
  const added = 'rule-added-1a2b3c4d';

  test('B’s ticket with A’s rule’s tag fails, naming the tag', () => {
    const v = new Verdict(checks, 't');
    assert.equal(
      v.check('isolation.rules-own-workspace', created(['run-tag', 'rule-cond-9f', added]), {
        tag: added,
      }),
      false,
    );
    const f = v.failures()[0]!;
    assert.equal(f.provenance, 'documented');
    assert.match(f.received, /workspace B's new ticket carries "rule-added-1a2b3c4d"/);
  });

  test('whatever else B’s ticket carries, or a creation that failed, holds', () => {
    // B's own rules, tags the deployment adds itself, the condition tag: none is A's rule's doing.
    assert.equal(
      holds('isolation.rules-own-workspace', created(['rule-cond-9f', 'auto-triaged']), {
        tag: added,
      }),
      true,
    );
    // No tags, or a refused creation: nothing shows A's rule acted (other checks judge those).
    assert.equal(holds('isolation.rules-own-workspace', created(undefined), { tag: added }), true);
    assert.equal(
      holds('isolation.rules-own-workspace', answer(422, { status: 422 }, 'POST', '/v1/tickets'), {
        tag: added,
      }),
      true,
    );
  });
});

describe('SLA checks judge the clock, not the fields other checks own', () => {
  const created = (priority: string, hours: number) =>
    answer(
      201,
      ticket({
        priority,
        sla: {
          first_response_due: new Date(
            Date.parse('2026-11-22T09:00:00Z') + hours * 3.6e6,
          ).toISOString(),
        },
      }),
      'POST',
      '/v1/tickets',
    );

  test('sla-recomputed compares with the deployment’s own target for the new priority', () => {
    // Other targets than the assumed table (reversed, or one for all): a recompute still holds.
    assert.equal(
      holds('ticket.sla-recomputed', created('high', 24), { twin: created('high', 24) }),
      true,
    );
    assert.equal(
      holds('ticket.sla-recomputed', created('high', 4), { twin: created('high', 4) }),
      true,
    );
    // Not recomputed: the old priority's due time.
    assert.equal(
      holds('ticket.sla-recomputed', created('high', 24), { twin: created('high', 1) }),
      false,
    );
    // No due time at all is ticket.sla-present's.
    assert.equal(
      holds('ticket.sla-recomputed', answer(200, ticket({ sla: undefined })), {
        twin: created('high', 1),
      }),
      true,
    );
  });

  test('timestamps-utc judges a due time that is there; an absent one is sla-present’s', () => {
    const noSla = answer(201, ticket({ sla: undefined }));
    assert.equal(holds('ticket.timestamps-utc', noSla), true);
    assert.equal(holds('ticket.sla-present', noSla), false);
    assert.equal(
      holds(
        'ticket.timestamps-utc',
        answer(201, ticket({ sla: { first_response_due: '2026-11-22 10:00' } })),
      ),
      false,
    );
    // An empty body still fails: created_at is judged here whatever happens.
    assert.equal(holds('ticket.timestamps-utc', answer(201, {})), false);
  });
});

describe('lists: the tickets are judged whatever the list’s shape', () => {
  test('a bare array is read as the list; its missing envelope is list-envelope’s alone', () => {
    const rows = [ticket({ priority: 'high' }), ticket({ id: 'tkt_2', priority: 'low' })];
    assert.deepEqual(listRows(rows), rows);
    assert.deepEqual(listRows({ data: rows, has_more: false, next_cursor: null }), rows);
    assert.deepEqual(
      listRows({ items: rows, next: null }),
      rows,
      'the one array of another envelope',
    );
    assert.deepEqual(listRows('nope'), []);
    const bare = answer(200, rows, 'GET', '/v1/tickets');
    assert.equal(
      holds('tickets.filter-includes', bare, { id: 'tkt_2', filter: { priority: 'low' } }),
      true,
    );
    assert.equal(holds('tickets.filter-applied', bare, { filter: { priority: 'low' } }), false);
    assert.equal(holds('tickets.list-envelope', bare), false);
    assert.equal(matchesFilter(ticket(), { status: 'open', priority: 'high' }), true);
    assert.equal(matchesFilter(ticket({ status: 'new' }), { status: 'open' }), false);
  });
});

describe('validation refinements judge only where the documented rule holds', () => {
  test('a 5xx is exchange.no-5xx’s, not a wrong 4xx nor an accepted input', () => {
    const crash = answer(500, { status: 500 }, 'POST', '/v1/tickets');
    assert.equal(holds('validation.invalid-rejected', crash, { what: 'x' }), true);
    assert.equal(holds('validation.status-422', crash, { what: 'x' }), true);
    assert.equal(holds('validation.error-field-named', crash, { field: 'requester' }), true);
    assert.equal(holds('exchange.no-5xx', crash), false);
  });

  test('error-field-named judges rejections, and one of several missing fields will do', () => {
    const accepted = answer(201, ticket(), 'POST', '/v1/tickets');
    assert.equal(holds('validation.error-field-named', accepted, { field: 'subject' }), true);
    const named = answer(422, { errors: [{ field: 'requester' }] }, 'POST', '/v1/tickets');
    assert.equal(
      holds('validation.error-field-named', named, { field: ['subject', 'requester'] }),
      true,
    );
    assert.equal(holds('validation.error-field-named', named, { field: 'subject' }), false);
  });
});

describe('the detection matrix’s judgement of one fault’s project', () => {
  const result = (check: string, passed: boolean, project = 'fault:x'): CheckResult => ({
    test: 't',
    project,
    check,
    provenance: 'assumed',
    passed,
    ...(passed
      ? {}
      : {
          failure: {
            check,
            provenance: 'assumed',
            rule: 'r',
            received: `${check} broke`,
            expected: 'e',
          },
        }),
  });
  const tests: TestRow[] = [
    { title: 't', file: 'f', project: 'fault:x', status: 'passed', durationMs: 1, tags: [] },
    {
      title: 'u',
      file: 'f',
      project: 'fault:x',
      status: 'failed',
      durationMs: 1,
      tags: [],
      error: 'boom',
      failedOn: 'precondition',
    },
  ];

  test('the named check caught; other failures are collateral unless listed; listed ones that pass are stale', () => {
    const results = [
      result('a.named', false),
      result('b.listed', false),
      result('c.other', false),
      result('d.listed-passed', true),
      result('c.other', false, 'fault:y'),
    ];
    const j = judgeFault(
      'fault:x',
      {
        check: 'a.named',
        alsoFails: [
          { check: 'b.listed', why: 'w' },
          { check: 'd.listed-passed', why: 'w' },
          { check: 'e.never-judged', why: 'w' },
        ],
      },
      tests,
      results,
    );
    assert.equal(j.caught, true);
    assert.deepEqual(
      j.collateral.map((c) => c.check),
      ['c.other', 'harness.precondition'],
      'an unlisted check, and a test whose precondition failed',
    );
    assert.deepEqual(j.stale, ['d.listed-passed'], 'a listed check not judged there is not stale');
    assert.equal(j.tests, 2);
  });
});

describe('auth and isolation refinements judge only rejections (every test and rule-matrix cell)', () => {
  const accepted = answer(200, { data: [] }, 'GET', '/v1/tickets');
  const notFound = answer(404, { status: 404, code: 'not_found' });
  const unauthorized = answer(401, { status: 401, code: 'unauthorized' });
  test('an accepted request is the documented rejection rule’s verdict alone', () => {
    assert.equal(holds('auth.missing-key-rejected', accepted), false);
    for (const c of [
      'auth.missing-key-401',
      'auth.invalid-key-401',
      'auth.www-authenticate',
    ] as const)
      assert.equal(holds(c, accepted), true, c);
    assert.equal(holds('auth.readonly-403', accepted, { operation: 'createTicket' }), true);
    assert.equal(
      holds('isolation.same-as-unknown', accepted, { unknown: notFound, operation: 'GET' }),
      true,
    );
  });
  test('a rejection is still held to which one: 401 not 404, a challenge on the 401, 404 like unknown', () => {
    assert.equal(holds('auth.missing-key-401', notFound), false);
    assert.equal(holds('auth.www-authenticate', notFound), true, 'only a 401 carries it');
    assert.equal(holds('auth.www-authenticate', unauthorized), false, 'no challenge on the 401');
    const forbidden = answer(403, { status: 403, code: 'forbidden' });
    assert.equal(
      holds('isolation.same-as-unknown', forbidden, { unknown: notFound, operation: 'GET' }),
      false,
    );
    assert.equal(holds('auth.readonly-403', forbidden, { operation: 'createTicket' }), false);
  });
});

describe('the detection matrix stopped by its hang guard says so', () => {
  test('a fault whose suite was cut short reads as stopped, not as silently missed', () => {
    const row = {
      fault: 'x',
      check: 'a.named',
      provenance: 'documented',
      caught: false,
      tests: 3,
      collateral: [],
      stale: [],
      stopped: "stopped at the matrix's time limit (4 min) before its suite had ended",
    };
    const area = detectionArea([row]);
    assert.equal(area.verdict, 'fail');
    assert.match(
      area.documentedFailures[0]!.received,
      /fault x on the embedded deployment: stopped at the matrix's time limit/,
    );
    assert.match(detectionMarkdown([row]), /\*\*NO\*\* \(stopped at the time limit\)/);
  });
});
