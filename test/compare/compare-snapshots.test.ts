/**
 * compareSnapshots on small hand-made snapshots: one case per rule, and the noise that must
 * never become a finding (counts, timestamps, generated ids, jittered timings, data-keyed maps).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompareFinding } from '../../compat/compare/types.ts';
import { compareSnapshots } from '../../compat/compare/compare-snapshots.ts';
import { RULES } from '../../compat/compare/rules.ts';
import {
  type BehaviourSnapshot,
  type OperationObservation,
  type PlanLimitObservation,
  SNAPSHOT_SCHEMA,
  SNAPSHOT_VERSION,
} from '../../core/snapshot/types.ts';
import { shapeOf } from '../../core/snapshot/shape.ts';

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

describe('compareSnapshots: noise is not behaviour', () => {
  test('a snapshot against itself, and against a later run with other counts, is empty', () => {
    const ops = { 'GET /v1/tickets/{ticket_id}': { '200': status(ticket), '404': status({}) } };
    const a = snap({ operations: ops, limits: [{ plan: 'team', burst: 200, ratePerMin: 120 }] });
    const b = snap(
      {
        operations: {
          'GET /v1/tickets/{ticket_id}': {
            '200': status({ ...ticket, count: 2.5, tags: [] }, { count: 17 }),
            '404': status({}, { count: 3 }),
          },
        },
        limits: [{ plan: 'team', burst: 202, ratePerMin: 121.9 }],
      },
      '2026-02-02T10:00:00.000Z',
    );
    assert.deepEqual(compareSnapshots(a, a), [], 'itself');
    assert.deepEqual(compareSnapshots(a, b), [], 'counts, empty arrays, integer/number, tolerance');
  });

  test('timestamps, generated ids and jittered timings in gap values are not changes', () => {
    const a = snap({
      gaps: {
        SLA: { due: ['2026-11-23T09:55:31.461Z', '2026-11-22T10:55:31.461Z'] },
        U10: { 'contact-location-header': '/v1/contacts/ctc_nE_S3RZRli7A' },
        U14: { 'retry-spacing-ms': [96, 191] },
        U1: { seen: { varies: ['open', 'closed'] } },
      },
    });
    const b = snap({
      gaps: {
        SLA: { due: ['2027-01-02T03:04:05.000Z', '2027-01-01T04:04:05.000Z'] },
        U10: { 'contact-location-header': '/v1/contacts/ctc_Q9xY_k2LmPZt' },
        U14: { 'retry-spacing-ms': [82, 170] },
        U1: { seen: { varies: ['closed', 'open'] } },
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

  const team: PlanLimitObservation = {
    plan: 'team',
    burst: 200,
    ratePerMin: 120,
    algorithm: 'token-bucket',
    resetUnit: 'epoch-s',
    scope: 'per-key',
  };

  test('limits beyond tolerance, and each classification changed, are ERR', () => {
    const found = compareSnapshots(
      snap({ limits: [team] }),
      snap({
        limits: [
          {
            plan: 'team',
            burst: 204,
            ratePerMin: 124,
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
  });

  test('within ±3 tokens and ±3 % nothing; unmeasured on one side is INFO, never ERR', () => {
    const near = { ...team, burst: 197, ratePerMin: 123.5 };
    assert.deepEqual(compareSnapshots(snap({ limits: [team] }), snap({ limits: [near] })), []);
    const found = compareSnapshots(
      snap({ limits: [team, { ...team, plan: 'growth' }] }),
      snap({ limits: [{ ...team, scope: 'unknown', burst: undefined }] }),
    );
    assert.deepEqual(rules(found), [
      'INFO limit-not-measured',
      'INFO limit-not-measured',
      'INFO limit-not-measured',
    ]);
    assert.deepEqual(
      rules(compareSnapshots(snap({ limits: [team] }), snap())),
      ['INFO limit-not-measured'],
      'a contracts-only run measures no limits',
    );
    assert.deepEqual(
      compareSnapshots(snap({ limits: [team] }), snap(), { limits: false }),
      [],
      'a run that skipped the load area (limits: false) does not compare them',
    );
  });
});

test('every finding is observed, uses a known rule at its level and says where', () => {
  const a = snap({
    operations: { 'GET /x': { '200': status({ a: 1, b: 'x' }), '404': status({}) } },
    gaps: { U2: { p: 'normal' } },
    limits: [{ plan: 'team', burst: 200, algorithm: 'token-bucket' }],
  });
  const b = snap({
    operations: { 'GET /x': { '200': status({ b: 2 }, { headers: [] }), '500': status({}) } },
    gaps: { U2: { p: 'low' } },
    limits: [{ plan: 'team', burst: 100, algorithm: 'fixed-window' }],
  });
  const found = compareSnapshots(a, b);
  assert.ok(found.length >= 8, `expected many findings, got ${found.length}`);
  for (const f of found) {
    assert.equal(f.provenance, 'observed', f.rule);
    assert.equal(f.level, RULES[f.rule as keyof typeof RULES]?.level, `level of ${f.rule}`);
    assert.ok(Object.keys(f.pointer).length > 0, `pointer of ${f.rule}`);
  }
});
