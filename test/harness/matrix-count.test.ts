/**
 * isolation.count: the other workspace's summary report may count no more tickets than its own
 * list shows, walked to its end after the report (contracts/matrix-count.ts, judged by the check
 * in core/checks/catalogue/auth.ts). Over fake clients: a leak fails, a clean report passes, a
 * walk past its cap, past the key's budget, on a list that errs or has no end it can see is not
 * judged (its cell not reached, with why), and the count's place is read from the spec.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import { matrixColumns, matrixPlan, matrixRules } from '../../core/checks/applies-to.ts';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import type { ApiClient } from '../../core/http/api-client.ts';
import { loadSpec } from '../../core/spec/load-spec.ts';
import { operations } from '../../core/spec/operations.ts';
import { COUNT_WALK_PAGES, otherWorkspaceCounts } from '../../contracts/matrix-count.ts';
import { MatrixObjects } from '../../contracts/matrix-objects.ts';
import { judgeSent, type Sent } from '../../contracts/matrix-sent.ts';
import { buildRuleMatrix } from '../../report/rule-matrix.ts';

const DOC = loadSpec();
const OPS = operations();
const REPORT = OPS.find((o) => o.operationId === 'getReportSummary')!;
const RULES = matrixRules(ALL_CHECKS);
const tag = { subject: (s: string) => `[harness t] ${s}`, tags: ['harness', 'run-t'] };
const CFG = { planKeys: { team: [], growth: [], enterprise: [] }, enterpriseLimits: {} } as any;

function answer(
  method: string,
  path: string,
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
) {
  const bodyText = JSON.stringify(json);
  const op = OPS.find((o) => o.method === method && o.regex.test(path));
  return {
    request: { method, url: `http://x${path}`, headers: {} },
    response: { status, headers, bodyText, json },
    durationMs: 1,
    operation: op,
    json,
    status,
  };
}

/** Workspace A's key: its ticket list shows `aTickets`; a creation answers 201 with an id. */
function aClient(sent: string[], aTickets: string[]) {
  return {
    send: async (method: string, path: string) => {
      sent.push(`A ${method} ${path}`);
      if (method === 'GET')
        return answer(method, path, 200, { data: aTickets.map((id) => ({ id })) });
      return answer(method, path, 201, { id: 'tkt_A_made' });
    },
  } as unknown as ApiClient;
}

interface BOptions {
  /** The report's tickets.total. */
  total: number;
  /** B's own tickets, newest first. */
  own: number;
  pageStatus?: number;
  reportStatus?: number;
  reportHeaders?: Record<string, string>;
  /** Pages without has_more / next_cursor (a list with no envelope it can follow). */
  noEnvelope?: boolean;
}

/** The other workspace's key: its report counts `total`; its list pages through `own` tickets. */
function bClient(sent: string[], o: BOptions) {
  return {
    send: async (method: string, path: string, init: { query?: Record<string, unknown> } = {}) => {
      const q = init.query ?? {};
      sent.push(`B ${method} ${path}${q.cursor ? `?cursor=${q.cursor}` : ''}`);
      if (path === '/v1/reports/summary')
        return answer(
          method,
          path,
          o.reportStatus ?? 200,
          {
            generated_at: '2025-01-01T00:00:00Z',
            tickets: {
              total: o.total,
              by_status: { open: o.total },
              by_priority: { normal: o.total },
            },
            sla: { at_risk: 0, breached: 0 },
          },
          o.reportHeaders,
        );
      const limit = Number(q.limit);
      const from = q.cursor ? Number(q.cursor) : 0;
      const ids = Array.from({ length: o.own }, (_, i) => ({
        id: `tkt_B${i}`,
        created_at: new Date(1e12 - i * 1000).toISOString(),
      })).slice(from, from + limit);
      const more = from + limit < o.own;
      return answer(
        method,
        path,
        o.pageStatus ?? 200,
        o.noEnvelope
          ? { data: ids }
          : { data: ids, has_more: more, next_cursor: more ? String(from + limit) : null },
      );
    },
  } as unknown as ApiClient;
}

async function countOnce(b: BOptions, aTickets = ['tkt_A1'], cfg = CFG) {
  const sent: string[] = [];
  const all = new MatrixObjects(DOC, OPS, { readOnly: false, tag });
  const out = await otherWorkspaceCounts({
    api: aClient(sent, aTickets),
    b: bClient(sent, b),
    op: REPORT,
    ops: OPS,
    path: REPORT.template,
    objects: [],
    all,
    otherKey: 'k_other',
    cfg,
  });
  return { sent, out, ...judge(out) };
}

function judge(sent: readonly Sent[]) {
  const v = new Verdict(checks, 't');
  const unreached: Array<{ check: string; column: string; reason: string }> = [];
  judgeSent(
    sent,
    ['isolation.count'],
    REPORT,
    (c, ex, args) => v.checkNamed(c, ex, args),
    (check, column, reason) => unreached.push({ check, column, reason }),
  );
  return { results: v.results, unreached };
}

describe('isolation.count: a report counts only its own workspace’s tickets', () => {
  test("the count's place and its list are read from the spec; the matrix sends B's key there", () => {
    assert.deepEqual(REPORT.counts, [{ collection: '/v1/tickets', path: ['tickets', 'total'] }]);
    assert.deepEqual(
      OPS.filter((o) => o.counts.length > 0).map((o) => o.operationId),
      ['getReportSummary'],
    );
    assert.equal(OPS.find((o) => o.operationId === 'listTickets')!.pageMax, 100);
    assert.deepEqual(matrixPlan(REPORT, RULES).find((p) => p.send === 'other-workspace')?.checks, [
      'isolation.count',
    ]);
    assert.equal(checks.get('isolation.count').provenance, 'documented');
  });

  test('a report counting more than B’s list shows after it fails, with Received / Documented', async () => {
    const { sent, results, unreached } = await countOnce({ total: 9, own: 3 });
    // A's ticket is found before the report, B's list walked after it.
    assert.deepEqual(sent, ['A GET /v1/tickets', 'B GET /v1/reports/summary', 'B GET /v1/tickets']);
    assert.deepEqual(unreached, []);
    assert.deepEqual(
      results.map((r) => [r.check, r.column, r.passed]),
      [['isolation.count', 'getReportSummary', false]],
    );
    const f = results[0]!.failure!;
    assert.equal(
      f.received,
      'GET /v1/reports/summary: the report of workspace B counts 9 tickets (tickets.total)',
    );
    assert.equal(f.expected, "only B's own: its list (GET /v1/tickets) shows 3 after the report");
  });

  test('a report counting what B’s list shows, or fewer (B grew since), passes', async () => {
    for (const total of [3, 2, 0]) {
      const { results, unreached } = await countOnce({ total, own: 3 });
      assert.deepEqual(
        results.map((r) => r.passed),
        [true],
        `total ${total}`,
      );
      assert.deepEqual(unreached, []);
    }
  });

  test('B’s list walked across pages to its end: every page counted once', async () => {
    const { sent, results } = await countOnce({ total: 250, own: 250 });
    assert.deepEqual(
      sent.filter((s) => s.startsWith('B GET /v1/tickets')),
      ['B GET /v1/tickets', 'B GET /v1/tickets?cursor=100', 'B GET /v1/tickets?cursor=200'],
    );
    assert.deepEqual(
      results.map((r) => r.passed),
      [true],
    );
    const leak = await countOnce({ total: 251, own: 250 });
    assert.deepEqual(
      leak.results.map((r) => r.passed),
      [false],
    );
  });

  test(`a B of thousands (long-lived staging): ${COUNT_WALK_PAGES} pages, then not reached with why — never judged on part of its list`, async () => {
    const { sent, results, unreached } = await countOnce({ total: 9999, own: 5000 });
    assert.equal(sent.filter((s) => s.startsWith('B GET /v1/tickets')).length, COUNT_WALK_PAGES);
    assert.deepEqual(results, [], 'not judged');
    assert.equal(unreached.length, 1);
    assert.equal(unreached[0]!.column, 'getReportSummary');
    assert.equal(
      unreached[0]!.reason,
      `not reachable on this target: workspace B's GET /v1/tickets was not walked to its end (${COUNT_WALK_PAGES} pages of 100, ${COUNT_WALK_PAGES * 100} objects, more after): the walk's cap of ${COUNT_WALK_PAGES} pages`,
    );
    const m = buildRuleMatrix(matrixColumns(OPS, []), RULES, results, unreached);
    assert.deepEqual(m.rows.find((r) => r.check === 'isolation.count')!.cells.getReportSummary, {
      state: 'not-reached',
      why: unreached[0]!.reason,
    });
  });

  test("the walk spends no more than B's key has above its reserve", async () => {
    // Team (120/min, burst 200 documented): reserve 40, Remaining 42 → 2 pages for the walk.
    const headers = { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '42' };
    const short = await countOnce({ total: 300, own: 300, reportHeaders: headers });
    assert.equal(short.sent.filter((s) => s.startsWith('B GET /v1/tickets')).length, 2);
    assert.deepEqual(short.results, []);
    assert.match(
      short.unreached[0]!.reason,
      /not walked to its end \(2 pages of 100, 200 objects, more after\): the other workspace's key has 42 requests left, 2 above its reserve of 40 \(20 % of the burst\)$/,
    );
    const none = await countOnce({
      total: 1,
      own: 1,
      reportHeaders: { ...headers, 'x-ratelimit-remaining': '30' },
    });
    assert.equal(none.sent.filter((s) => s.startsWith('B GET /v1/tickets')).length, 0);
    assert.match(none.unreached[0]!.reason, /not walked to its end \(not sent\): .* 0 above/);
    // Enough left: the cap alone bounds it, and a small B is judged.
    const enough = await countOnce({ total: 1, own: 1, reportHeaders: headers });
    assert.deepEqual(
      enough.results.map((r) => r.passed),
      [true],
    );
    // The run's --reserve (or the one it resolved from the preflight) is HARNESS_API_KEY's: a
    // Growth key's 200 left on a Team B would leave it nothing.
    const runReserve = await countOnce({ total: 300, own: 300, reportHeaders: headers }, [], {
      ...CFG,
      reserve: 200,
    });
    assert.equal(runReserve.sent.filter((s) => s.startsWith('B GET /v1/tickets')).length, 2);
  });

  for (const c of [
    {
      title: 'the report refused to B',
      b: { total: 9, own: 1, reportStatus: 403 },
      why: /the report answered workspace B 403: no count$/,
      walked: 0,
    },
    {
      title: 'B’s list answers 500',
      b: { total: 9, own: 1, pageStatus: 500 },
      why: /workspace B's GET \/v1\/tickets answered 500 on page 1: no list to count$/,
      walked: 1,
    },
    {
      title: 'B’s full page says nothing of more',
      b: { total: 900, own: 300, noEnvelope: true },
      why: /page 1 is full \(100\) and names no next page nor says it is the last: where its list ends is not known$/,
      walked: 1,
    },
  ])
    test(`${c.title}: not judged, not reached with why`, async () => {
      const { sent, results, unreached } = await countOnce(c.b);
      assert.equal(sent.filter((s) => s.startsWith('B GET /v1/tickets')).length, c.walked);
      assert.deepEqual(results, []);
      assert.equal(unreached.length, 1);
      assert.match(unreached[0]!.reason, /^not reachable on this target: /);
      assert.match(unreached[0]!.reason, c.why);
    });

  test('A with no ticket: one is made before the report (a leak has something to add)', async () => {
    const { sent, results } = await countOnce({ total: 2, own: 1 }, []);
    assert.deepEqual(sent.slice(0, 3), [
      'A GET /v1/tickets',
      'A POST /v1/tickets',
      'B GET /v1/reports/summary',
    ]);
    assert.deepEqual(
      results.map((r) => r.passed),
      [false],
    );
  });

  test('the judge: a refused report, a total that is no number, or no count given are no evidence', () => {
    const args = {
      operation: 'GET /v1/reports/summary',
      count: { path: ['tickets', 'total'], collection: '/v1/tickets', listed: 1 },
    };
    const ok = (status: number, json: unknown) =>
      answer('GET', '/v1/reports/summary', status, json) as unknown as Exchange;
    const cases: Array<[Exchange, unknown]> = [
      [ok(401, { title: 'no' }), args],
      [ok(200, { tickets: { total: '5' } }), args],
      [ok(200, { tickets: [5] }), args],
      [ok(200, { tickets: { total: 5 } }), { operation: 'x' }],
    ];
    for (const [ex, a] of cases) {
      const v = new Verdict(checks, 't');
      v.checkNamed('isolation.count', ex, a as never);
      assert.deepEqual(v.results, [], JSON.stringify(ex.response?.json));
    }
  });
});
