/**
 * compareSnapshots on small hand-made snapshots: one case per rule, and the noise that must
 * never become a finding (counts, timestamps, generated ids, jittered timings, data-keyed maps).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompareFinding } from '../../compat/compare/types.ts';
import { compareBehaviour, compareSnapshots } from '../../compat/compare/compare-snapshots.ts';
import { asSnapshot } from '../../compat/compare/load-snapshot.ts';
import { RULES } from '../../compat/compare/rules.ts';
import { buildSnapshot } from '../../report/snapshot.ts';
import {
  type BehaviourSnapshot,
  type ExchangeRow,
  type Measurement,
  type OperationObservation,
  type PlanLimitObservation,
  type ProbeRow,
  SNAPSHOT_SCHEMA,
  SNAPSHOT_VERSION,
} from '../../core/snapshot/types.ts';
import { notObservable } from '../../core/snapshot/not-observable.ts';
import { mergeShapes, shapeOf } from '../../core/snapshot/shape.ts';

type Statuses = OperationObservation['statuses'];

function snap(
  parts: {
    operations?: Record<string, Statuses>;
    gaps?: BehaviourSnapshot['gaps'];
    limits?: PlanLimitObservation[];
  } = {},
  takenAt = '2026-01-01T00:00:00.000Z',
): BehaviourSnapshot {
  return {
    schema: SNAPSHOT_SCHEMA,
    version: SNAPSHOT_VERSION,
    takenAt,
    target: 'embedded reference deployment',
    operations: Object.fromEntries(
      Object.entries(parts.operations ?? {}).map(([k, statuses]) => [k, { statuses }]),
    ),
    gaps: parts.gaps ?? {},
    limits: parts.limits ?? [],
  };
}

const RL = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const ticket = { id: 't_1', status: 'open', priority: 'normal', tags: ['a'], count: 2 };

function status(body: unknown, over: Partial<Statuses[string]> = {}): Statuses[string] {
  return {
    count: 1,
    headers: RL,
    contentTypes: ['application/json'],
    ...(body === undefined ? {} : { shape: shapeOf(body) }),
    ...over,
  };
}

const rules = (fs: CompareFinding[]) => fs.map((f) => `${f.level} ${f.rule}`).sort();

/** A measurement: `value` ± `half`. */
const m = (value: number, half: number, inconclusive = false): Measurement => ({
  value,
  low: value - half,
  high: value + half,
  ...(inconclusive ? { inconclusive: true as const } : {}),
});

describe('compareSnapshots: noise is not behaviour', () => {
  test('a snapshot against itself, and against a later run with other counts, is empty', () => {
    const ops = { 'GET /v1/tickets/{ticket_id}': { '200': status(ticket), '404': status({}) } };
    const a = snap({
      operations: ops,
      limits: [{ plan: 'team', burst: m(200.4, 1.2), ratePerMin: m(120, 1.2) }],
    });
    const b = snap(
      {
        operations: {
          'GET /v1/tickets/{ticket_id}': {
            '200': status({ ...ticket, count: 2.5, tags: [] }, { count: 17 }),
            '404': status({}, { count: 3 }),
          },
        },
        limits: [{ plan: 'team', burst: m(201.9, 0.8), ratePerMin: m(121.1, 1.2) }],
      },
      '2026-02-02T10:00:00.000Z',
    );
    assert.deepEqual(compareSnapshots(a, a), [], 'itself');
    assert.deepEqual(
      compareSnapshots(a, b),
      [],
      'counts, empty arrays, integer/number, overlapping intervals',
    );
  });

  test('timestamps, generated ids and jittered timings in gap values are not changes', () => {
    const a = snap({
      gaps: {
        SLA: { due: ['2026-11-23T09:55:31.461Z', '2026-11-22T10:55:31.461Z'] },
        U10: { 'contact-location-header': '/v1/contacts/ctc_nE_S3RZRli7A' },
        U14: { 'retry-spacing-ms': [96, 191] },
        U1: { seen: { varies: ['open', 'closed'] } },
        U4: { link: '</v1/tickets?limit=25&cursor=eyJzIjo2fQ>; rel="next"' },
      },
    });
    const b = snap({
      gaps: {
        SLA: { due: ['2027-01-02T03:04:05.000Z', '2027-01-01T04:04:05.000Z'] },
        U10: { 'contact-location-header': '/v1/contacts/ctc_Q9xY_k2LmPZt' },
        U14: { 'retry-spacing-ms': [82, 170] },
        U1: { seen: { varies: ['closed', 'open'] } },
        // A deployment that kept what the last run created: the cursor stands elsewhere.
        U4: { link: '</v1/tickets?limit=25&cursor=eyJzIjo2MH0>; rel="next"' },
      },
    });
    assert.deepEqual(compareSnapshots(a, b), []);
  });

  test('a timing is a range: two retries then one, each within jitter, is no change', () => {
    // The issue-16 case: `U14 retry spacing [117,184] → [107]` was WARN on a clean run.
    const a = snap({ gaps: { U14: { 'retry-spacing-ms': [117, 184] } } });
    for (const now of [[107], [92], [250], [540], { varies: [[88], [131]] }])
      assert.deepEqual(
        compareSnapshots(a, snap({ gaps: { U14: { 'retry-spacing-ms': now } } })),
        [],
        JSON.stringify(now),
      );
    // An order of magnitude away is a change of behaviour, whichever way.
    for (const now of [[1000], [117, 1200], [20]])
      assert.deepEqual(
        rules(compareSnapshots(a, snap({ gaps: { U14: { 'retry-spacing-ms': now } } }))),
        ['WARN gap-value-changed'],
        JSON.stringify(now),
      );
  });

  test('a probe’s label is not a behaviour: reworded, the same id compares equal', () => {
    const labelled = (label: string): BehaviourSnapshot => ({
      ...snap({ gaps: { U14: { 'retry-answers': [503, 204] } } }),
      gapLabels: { U14: { 'retry-answers': label } },
    });
    assert.deepEqual(
      compareSnapshots(
        labelled('attempts for 503, 503, 204'),
        labelled('attempts for 503, then 204'),
      ),
      [],
    );
    // A finding names the probe by its label, the pointer by its id.
    const [changed] = compareSnapshots(labelled('answers'), {
      ...labelled('answers, attempt by attempt'),
      gaps: { U14: { 'retry-answers': [503, 503, 204] } },
    });
    assert.equal(changed?.pointer.probe, 'retry-answers');
    assert.match(changed?.message ?? '', /^U14 “answers, attempt by attempt” was \[503,204\]/);
  });

  test('keys of a map of counts come and go with the data', () => {
    const report = (byStatus: Record<string, number>) =>
      snap({
        operations: { 'GET /v1/reports/summary': { '200': status({ by_status: byStatus }) } },
      });
    const found = compareSnapshots(report({ open: 2, pending: 1 }), report({ closed: 4 }));
    assert.deepEqual(found, []);
  });
});

describe('compareSnapshots: one finding per change, at its level', () => {
  const op = 'POST /v1/tickets';
  const base = snap({ operations: { [op]: { '201': status(ticket), '422': status({ x: 1 }) } } });

  const cases: Array<{ name: string; current: BehaviourSnapshot; expect: string[] }> = [
    {
      name: 'a status no longer answered, another one new',
      current: snap({ operations: { [op]: { '200': status(ticket), '422': status({ x: 1 }) } } }),
      expect: ['ERR status-removed', 'INFO status-added'],
    },
    {
      name: 'a new 5xx',
      current: snap({
        operations: {
          [op]: { '201': status(ticket), '422': status({ x: 1 }), '500': status({ x: 1 }) },
        },
      }),
      expect: ['WARN server-error-added'],
    },
    {
      name: 'rate-limit headers dropped on an error, another header dropped and one added',
      current: snap({
        operations: {
          [op]: {
            '201': status(ticket, { headers: ['Content-Type', 'X-RateLimit-Limit', 'location'] }),
            '422': status({ x: 1 }, { headers: ['content-type'] }),
          },
        },
      }),
      expect: [
        'ERR ratelimit-header-removed',
        'ERR ratelimit-header-removed',
        'ERR ratelimit-header-removed',
        'ERR ratelimit-header-removed',
        'ERR ratelimit-header-removed',
        'INFO response-header-added',
      ],
    },
    {
      name: 'problem+json became text/plain',
      current: snap({
        operations: {
          [op]: {
            '201': status(ticket),
            '422': status(undefined, { contentTypes: ['text/plain'] }),
          },
        },
      }),
      expect: ['ERR content-type-removed', 'ERR response-body-not-json', 'INFO content-type-added'],
    },
    {
      name: 'fields removed, added, retyped, widened',
      current: snap({
        operations: {
          [op]: {
            '201': {
              ...status({ id: 1, status: null, priority: 'normal', tags: ['a'], due: 'x' }),
              shape: {
                object: {
                  id: 'integer',
                  status: 'null|string',
                  priority: 'string',
                  tags: { array: 'string' },
                  due: 'string',
                },
              },
            },
            '422': status({ x: 1 }),
          },
        },
      }),
      expect: [
        'ERR response-field-removed',
        'ERR response-field-retyped',
        'INFO response-field-added',
        'WARN response-field-type-widened',
      ],
    },
    {
      name: 'a field sometimes missing now',
      current: snap({
        operations: {
          [op]: {
            '201': {
              ...status(ticket),
              shape: {
                object: {
                  count: 'integer',
                  id: 'string',
                  priority: 'string|undefined',
                  status: 'string',
                  tags: { array: 'string' },
                },
              },
            },
            '422': status({ x: 1 }),
          },
        },
      }),
      expect: ['WARN response-field-became-optional'],
    },
    {
      name: 'an operation not exercised, another one new',
      current: snap({ operations: { 'GET /v1/rules': { '200': status([]) } } }),
      expect: ['INFO operation-added', 'INFO operation-not-observed'],
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      assert.deepEqual(rules(compareSnapshots(base, c.current)), [...c.expect].sort());
    });

  test('a list envelope that became a bare array: root retyped, envelope fields removed', () => {
    const list = (body: unknown) =>
      snap({ operations: { 'GET /v1/tickets': { '200': status(body) } } });
    const found = compareSnapshots(
      list({ data: [ticket], has_more: false, next_cursor: null }),
      list([ticket]),
    );
    const err = found.filter((f) => f.level === 'ERR').map((f) => f.pointer.field);
    assert.deepEqual(err, ['/', '/data', '/has_more', '/next_cursor'], JSON.stringify(found));
    assert.deepEqual(
      found.find((f) => f.pointer.field === '/')?.pointer,
      { operation: 'GET /v1/tickets', status: '200', field: '/' },
      'pointer: operation + status + field',
    );
  });

  test('a field that was only sometimes sent and is not seen now is not a removal', () => {
    const body = (s: BehaviourSnapshot['operations'][string]['statuses'][string]['shape']) =>
      snap({ operations: { [op]: { '201': { ...status(undefined), shape: s } } } });
    const found = compareSnapshots(
      body({ object: { id: 'string', name: 'string|undefined' } }),
      body({ object: { id: 'string' } }),
    );
    assert.deepEqual(rules(found), ['INFO response-field-not-observed']);
  });

  test('a field the resource leaves out for some data, missing from a list now: data, a note', () => {
    const named = { id: 't_1', requester: { email: 'a@x', name: 'A' } };
    const unnamed = { id: 't_2', requester: { email: 'b@x' } };
    const ops = (list: unknown[]) => ({
      'POST /v1/tickets': {
        '201': { ...status(named), shape: mergeShapes(shapeOf(named), shapeOf(unnamed)) },
      },
      'GET /v1/tickets': { '200': status({ data: list }) },
    });
    // The baseline's list happened to hold named requesters only; this run's met an unnamed one.
    const r = compareBehaviour(
      snap({ operations: ops([named]) }),
      snap({ operations: ops([named, unnamed]) }),
    );
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.notes.filter((n) => n.kind === 'data').map((n) => n.pointer.field),
      ['/data/*/requester/name'],
    );
    // Never seen missing anywhere before: a change a client can trip over.
    const strict = { 'GET /v1/tickets': { '200': status({ data: [named] }) } };
    const now = { 'GET /v1/tickets': { '200': status({ data: [named, unnamed] }) } };
    assert.deepEqual(
      rules(compareSnapshots(snap({ operations: strict }), snap({ operations: now }))),
      ['WARN response-field-became-optional'],
    );
  });

  test('a field seen missing at times before and always sent now is no change (absence of evidence)', () => {
    const body = (s: BehaviourSnapshot['operations'][string]['statuses'][string]['shape']) =>
      snap({ operations: { [op]: { '201': { ...status(undefined), shape: s } } } });
    const before = body({ object: { id: 'string', name: 'string|undefined' } });
    const now = body({ object: { id: 'string', name: 'string' } });
    assert.deepEqual(rules(compareSnapshots(before, now)), []);
    // The other way round is a change a client can trip over.
    assert.deepEqual(rules(compareSnapshots(now, before)), ['WARN response-field-became-optional']);
  });
});

describe('compareSnapshots: gaps and plan limits', () => {
  test('gap values: changed is WARN, a dropped Z is a change, probes on one side are INFO', () => {
    const found = compareSnapshots(
      snap({
        gaps: {
          U5: { 'create-status': 201, 'create-location-header': true },
          U23: { reset: '2026-01-01T00:00:00Z' },
          U14: { 'retry-spacing-ms': [100, 200] },
        },
      }),
      snap({
        gaps: {
          U5: { 'create-status': 200, extra: 1 },
          U23: { reset: '2026-01-01T00:00:00' },
          U14: { 'retry-spacing-ms': [1000, 2000] },
        },
      }),
    );
    assert.deepEqual(rules(found), [
      'INFO gap-not-observed',
      'INFO gap-probe-added',
      'WARN gap-value-changed',
      'WARN gap-value-changed',
      'WARN gap-value-changed',
    ]);
    assert.deepEqual(
      found.find((f) => f.rule === 'gap-value-changed')?.pointer,
      { gap: 'U5', probe: 'create-status' },
      'U-table order: U5 before U14 and U23',
    );
  });

  test('a value a run could not observe for its data is left out with a data note, either side', () => {
    const seen = { U4: { 'default-page-size': 25, 'max-page-size': 100 } };
    const unseen = (why: string) => ({
      U4: { 'default-page-size': notObservable(why), 'max-page-size': 100 },
    });
    for (const [a, b] of [
      [seen, unseen('the first page held every ticket (3)')],
      [unseen('the first page held every ticket (7)'), seen],
      [unseen('one ticket'), unseen('two tickets')],
      [{ U4: { 'max-page-size': 100 } }, unseen('none')],
    ] as const) {
      const r = compareBehaviour(snap({ gaps: a }), snap({ gaps: b }));
      assert.deepEqual(r.findings, []);
      const note = r.notes.find((n) => n.kind === 'data');
      assert.match(
        note?.message ?? '',
        /U4 “default-page-size” not compared \(.*could not observe it/,
      );
    }
    // A seen value that changed is still a change.
    const changed = compareSnapshots(
      snap({ gaps: seen }),
      snap({ gaps: { U4: { 'default-page-size': 50, 'max-page-size': 100 } } }),
    );
    assert.deepEqual(rules(changed), ['WARN gap-value-changed']);
  });

  const team: PlanLimitObservation = {
    plan: 'team',
    burst: m(200.5, 1),
    ratePerMin: m(120, 1.2),
    algorithm: 'token-bucket',
    resetUnit: 'epoch-s',
    scope: 'per-key',
  };
  const both = (base: PlanLimitObservation[], cur: PlanLimitObservation[]) =>
    compareBehaviour(snap({ limits: base }), snap({ limits: cur }));

  test('intervals that do not overlap, and each classification changed, are ERR', () => {
    const found = compareSnapshots(
      snap({ limits: [team] }),
      snap({
        limits: [
          {
            plan: 'team',
            burst: m(204, 1),
            ratePerMin: m(124, 1.2),
            algorithm: 'fixed-window',
            resetUnit: 'epoch-ms',
            scope: 'shared',
          },
        ],
      }),
    );
    assert.deepEqual(rules(found), [
      'ERR limit-algorithm-changed',
      'ERR limit-burst-changed',
      'ERR limit-rate-changed',
      'ERR limit-reset-unit-changed',
      'ERR limit-scope-changed',
    ]);
    const burst = found.find((f) => f.rule === 'limit-burst-changed')!;
    assert.match(burst.message, /team burst was 200\.5 \[199\.5, 201\.5\], is 204 \[203, 205\]/);
  });

  test('a change is judged by the measurements: overlapping intervals are the same limit', () => {
    // The issue-24 case: 1001 against B̂ 1005.6 ± 11.1 — inside the interval, no change.
    const growth = (burst: Measurement) => [{ plan: 'growth', burst }];
    assert.deepEqual(both(growth(m(1001.2, 1.3)), growth(m(1005.6, 11.1))).findings, []);
    // Far apart, but both wide: still one limit as far as the measurements can tell.
    assert.deepEqual(both(growth(m(1000, 6)), growth(m(1011, 6))).findings, []);
    // Tight and apart: a real change of 10 tokens.
    assert.deepEqual(rules(both(growth(m(1000.4, 1)), growth(m(1010.4, 1))).findings), [
      'ERR limit-burst-changed',
    ]);
  });

  test('an inconclusive measurement is never compared as a number: a note says so', () => {
    const r = both(
      [{ plan: 'growth', burst: m(1001, 1) }],
      [{ plan: 'growth', burst: m(1040, 20, true) }],
    );
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.notes.filter((n) => n.kind === 'inconclusive').map((n) => n.pointer),
      [{ plan: 'growth', property: 'burst' }],
    );
    assert.match(
      r.notes.find((n) => n.kind === 'inconclusive')!.message,
      /this run's 1040 \[1020, 1060\] inconclusive/,
    );
    // A classification with low confidence is not a value either.
    const low = both(
      [team],
      [{ ...team, algorithm: 'sliding-counter', algorithmConfidence: 'low' }],
    );
    assert.deepEqual(low.findings, []);
    assert.ok(
      low.notes.some((n) => n.kind === 'inconclusive' && n.pointer.property === 'algorithm'),
    );
    const sure = both(
      [team],
      [{ ...team, algorithm: 'fixed-window', algorithmConfidence: 'high' }],
    );
    assert.deepEqual(rules(sure.findings), ['ERR limit-algorithm-changed']);
    // A classifier that could not tell is not compared either.
    const u = both([team], [{ ...team, scope: 'unknown' }]);
    assert.deepEqual(u.findings, []);
    assert.ok(u.notes.some((n) => n.kind === 'inconclusive' && n.pointer.property === 'scope'));
  });

  test('a version 2 value without an interval is compared with the new interval only', () => {
    const old = (burst: number, ratePerMin: number) =>
      asSnapshot({ ...snap(), version: 2, limits: [{ plan: 'growth', burst, ratePerMin }] });
    const now = snap({
      limits: [{ plan: 'growth', burst: m(1005.6, 11.1), ratePerMin: m(600, 6) }],
    });
    const same = compareBehaviour(old(1001, 600), now);
    assert.deepEqual(same.findings, []);
    assert.deepEqual(
      same.notes.filter((n) => n.kind === 'no-interval').map((n) => n.pointer.property),
      ['burst', 'ratePerMin'],
    );
    // Outside the new interval (widened by the rounding of the old value): a change.
    assert.deepEqual(rules(compareSnapshots(old(990, 600), now)), ['ERR limit-burst-changed']);
    // Two version 2 snapshots: the fixed tolerance they were compared with before.
    const two = compareBehaviour(old(1001, 600), old(1003, 610));
    assert.deepEqual(rules(two.findings), []);
    assert.deepEqual(rules(compareSnapshots(old(1001, 600), old(1005, 600))), [
      'ERR limit-burst-changed',
    ]);
  });

  test('what one run did not measure is a note, never a finding', () => {
    const r = both([team, { ...team, plan: 'growth' }], [{ ...team, burst: undefined }]);
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.notes.filter((n) => n.kind === 'not-measured').map((n) => n.message),
      [
        'growth plan limits were not measured in this run',
        'team burst was not measured in this run',
      ],
    );
    const noLoad = compareBehaviour(snap({ limits: [team] }), snap());
    assert.deepEqual(noLoad.findings, [], 'a contracts-only run measures no limits');
    assert.match(noLoad.notes.at(-1)!.message, /plan limits were not measured in this run/);
    assert.deepEqual(
      compareSnapshots(
        snap({ limits: [team] }),
        snap({ limits: [{ ...team, burst: m(300, 1) }] }),
        {
          limits: false,
        },
      ),
      [],
      'a run that skipped the load area (limits: false) does not compare them',
    );
  });
});

test('every finding is observed, uses a known rule at its level and says where', () => {
  const a = snap({
    operations: { 'GET /x': { '200': status({ a: 1, b: 'x' }), '404': status({}) } },
    gaps: { U2: { p: 'normal' } },
    limits: [{ plan: 'team', burst: m(200, 1), algorithm: 'token-bucket' }],
  });
  const b = snap({
    operations: { 'GET /x': { '200': status({ b: 2 }, { headers: [] }), '500': status({}) } },
    gaps: { U2: { p: 'low' } },
    limits: [{ plan: 'team', burst: m(100, 1), algorithm: 'fixed-window' }],
  });
  const found = compareSnapshots(a, b);
  assert.ok(found.length >= 8, `expected many findings, got ${found.length}`);
  for (const f of found) {
    assert.equal(f.provenance, 'observed', f.rule);
    assert.equal(f.level, RULES[f.rule as keyof typeof RULES]?.level, `level of ${f.rule}`);
    assert.ok(Object.keys(f.pointer).length > 0, `pointer of ${f.rule}`);
  }
});

describe('compareBehaviour: only what both runs exercised', () => {
  const A = 'list tickets › a cursor walk';
  const B = 'key rotation › the new key works';
  const C = 'create › answers 201';
  const row = (
    test: string,
    operation: string,
    status: number,
    headers: Record<string, string>,
    json?: unknown,
  ): ExchangeRow => ({
    test,
    method: operation.split(' ')[0]!,
    url: 'http://127.0.0.1/x',
    operation,
    status,
    headers: { 'content-type': 'application/json', ...headers },
    json,
    requestBody: undefined,
    shape: undefined,
    bodyPrefix: undefined,
    error: undefined,
    durationMs: 1,
  });
  const RLH = { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '5' };
  const page = (next: string | null) => ({ data: [], has_more: next !== null, next_cursor: next });
  /** A full run: A walks pages (Link on all but the last), B lists once, C creates. */
  const run = (tests: string[], over: { dropLink?: boolean; dropRl?: boolean } = {}) => {
    const rows = [
      row(
        A,
        'GET /v1/tickets',
        200,
        { ...RLH, ...(over.dropLink ? {} : { link: '<…>' }) },
        page('c1'),
      ),
      row(A, 'GET /v1/tickets', 200, RLH, page(null)),
      // B met a workspace with tickets in the full run; alone it meets an empty one.
      row(
        B,
        'GET /v1/tickets',
        200,
        tests.includes(A) ? { ...RLH, link: '<…>' } : RLH,
        page(tests.includes(A) ? 'c9' : null),
      ),
      row(
        C,
        'POST /v1/tickets',
        201,
        over.dropRl ? { location: '/t/1' } : { ...RLH, location: '/t/1' },
        { id: 't_1' },
      ),
    ].filter((r) => tests.includes(r.test));
    const probes: ProbeRow[] = [
      { gap: 'U4', id: 'first-page-link-header', value: true, test: A },
      { gap: 'U5', id: 'create-status', value: 201, test: C },
    ].filter((p) => tests.includes(p.test));
    return buildSnapshot('embedded', rows, probes, [], {
      areas: ['contracts'],
      tests,
      ...(tests.length < 3 ? { grep: 'part' } : {}),
    });
  };
  const full = run([A, B, C]);

  test('a --grep run that did not run the test that saw a header finds nothing, and says so', () => {
    const r = compareBehaviour(full, run([B]));
    assert.deepEqual(r.findings, []);
    const notes = r.notes.map((n) => n.message);
    assert.ok(
      notes.some((n) => /compared over the 1 contract test\(s\) both runs ran/.test(n)),
      notes.join('\n'),
    );
    assert.ok(
      notes.includes(
        'POST /v1/tickets 201: seen in the baseline only by tests this run did not run',
      ),
      notes.join('\n'),
    );
    assert.ok(notes.some((n) => /U4 “first-page-link-header”: seen in the baseline only/.test(n)));
    // Link (sent on some answers only) and next_cursor's string (a next page) depended on data.
    assert.ok(
      notes.some((n) => /no longer sends link \(the baseline saw it only sometimes/.test(n)),
    );
  });

  test('a header the baseline always sent is gone on an operation a test of both runs exercised: found', () => {
    const r = compareBehaviour(full, run([C], { dropRl: true }));
    assert.deepEqual(
      r.findings.map((f) => `${f.level} ${f.rule} ${f.pointer.header}`),
      [
        'ERR ratelimit-header-removed x-ratelimit-limit',
        'ERR ratelimit-header-removed x-ratelimit-remaining',
      ],
    );
  });

  test('between runs of the same tests even a header seen only sometimes is evidence', () => {
    const r = compareBehaviour(full, run([A, B, C], { dropLink: true }));
    // B still sends it; A no longer does: Link is still seen, so nothing is gone …
    assert.deepEqual(r.findings, []);
    const gone = compareBehaviour(run([A, C]), run([A, C], { dropLink: true }));
    assert.deepEqual(
      gone.findings.map((f) => `${f.level} ${f.rule} ${f.pointer.header}`),
      ['ERR response-header-removed link'],
    );
  });

  test('what only this run’s new tests saw is not "added" either', () => {
    const r = compareBehaviour(run([A, B]), run([A, B, C]));
    assert.deepEqual(r.findings, []);
    assert.ok(
      r.notes.some(
        (n) =>
          n.message ===
          'POST /v1/tickets 201: seen in this run only by tests the baseline did not run',
      ),
    );
  });

  test('a status seen through another test on the other side is neither added nor removed', () => {
    // The run's one shared ticket is created by whichever test needs it first: C in the full
    // run, B when a --grep runs B alone. Which test saw 201 differs; the deployment does not.
    const created = (test: string) =>
      row(test, 'POST /v1/tickets', 201, { ...RLH, location: '/t/1' }, { id: 't_1' });
    const snap = (tests: string[], creator: string) =>
      buildSnapshot(
        'embedded',
        [row(B, 'GET /v1/tickets', 200, RLH, page(null)), created(creator)],
        [],
        [],
        {
          areas: ['contracts'],
          tests,
          ...(tests.length < 3 ? { grep: 'part' } : {}),
        },
      );
    assert.deepEqual(compareBehaviour(snap([A, B, C], C), snap([B], B)).findings, []);
    assert.deepEqual(compareBehaviour(snap([B], B), snap([A, B, C], C)).findings, []);
    // Gone from every test of a run that ran the test that saw it: still found.
    const gone = buildSnapshot(
      'embedded',
      [row(B, 'GET /v1/tickets', 200, RLH, page(null))],
      [],
      [],
      {
        areas: ['contracts'],
        tests: [B, C],
        grep: 'part',
      },
    );
    assert.deepEqual(rules(compareSnapshots(snap([A, B, C], C), gone)), [
      'INFO operation-not-observed',
    ]);
  });

  test('against a version 2 baseline (no record) a partial run reads nothing as gone', () => {
    const { exercised: _e, probedBy: _p, ...v2 } = { ...full, version: 2 };
    const old = asSnapshot(v2);
    const r = compareBehaviour(old, run([B]));
    assert.deepEqual(r.findings, []);
    assert.equal(r.notes[0]!.kind, 'no-record');
    // A whole run against it compares as version 2 did.
    assert.deepEqual(rules(compareSnapshots(old, run([A, B, C], { dropRl: true }))), [
      'ERR ratelimit-header-removed',
      'ERR ratelimit-header-removed',
    ]);
  });
});
