/**
 * The rule × operation matrix is read from the spec and the catalogue, never listed: an operation
 * added to a copy of the spec grows the columns, the cells and the requests the suite sends for
 * it; a rule added to the catalogue grows the rows and joins the request it names. The cells of a
 * run come from the check results (each carries its column) and the reasons the suite recorded.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import {
  type MatrixRule,
  everyAnswerRules,
  matrixColumns,
  matrixPlan,
  matrixRules,
} from '../../core/checks/applies-to.ts';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { validate } from '../../core/schemas/registry.ts';
import { loadSpec } from '../../core/spec/load-spec.ts';
import { operations, webhookEvents } from '../../core/spec/operations.ts';
import { sampleBody } from '../../core/spec/sample-body.ts';
import { buildRuleMatrix } from '../../report/rule-matrix.ts';
import { type AObject, MatrixObjects } from '../../contracts/matrix-objects.ts';
import { judgeSent, otherWorkspaceLists, RATE_LIMITED } from '../../contracts/matrix-sent.ts';
import type { ApiClient } from '../../core/http/api-client.ts';
import { judgement } from './judgement-fixture.ts';

const RULES = matrixRules(ALL_CHECKS);
const DOC = loadSpec();

/** A copy of the spec with a tags resource: a list, a creation, a read and a deletion by id. */
function withTags(): any {
  const doc = structuredClone(DOC);
  const ok = (schema: string) => ({
    description: 'ok',
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  });
  doc.components.schemas.Tag = {
    type: 'object',
    required: ['id', 'label'],
    properties: { id: { type: 'string' }, label: { type: 'string', minLength: 1 } },
  };
  doc.components.schemas.TagCreate = {
    type: 'object',
    required: ['label'],
    properties: { label: { type: 'string', minLength: 1, maxLength: 40 } },
  };
  doc.components.schemas.TagList = {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Tag' } } },
  };
  doc.paths['/v1/tags'] = {
    get: { operationId: 'listTags', 'x-scope': 'read', responses: { '200': ok('TagList') } },
    post: {
      operationId: 'createTag',
      'x-scope': 'write',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TagCreate' } } },
      },
      responses: { '201': ok('Tag') },
    },
  };
  doc.paths['/v1/tags/{tag_id}'] = {
    parameters: [{ name: 'tag_id', in: 'path', required: true, schema: { type: 'string' } }],
    get: { operationId: 'getTag', 'x-scope': 'read', responses: { '200': ok('Tag') } },
    delete: {
      operationId: 'deleteTag',
      'x-scope': 'write',
      responses: { '204': { description: 'gone' } },
    },
  };
  return doc;
}

const cellsOf = (m: ReturnType<typeof buildRuleMatrix>) =>
  m.rows.reduce((n, r) => n + Object.values(r.cells).filter((c) => c.state !== 'n/a').length, 0);

describe('the matrix is read from the spec', () => {
  test('every operation and webhook event of the spec is a column; every documented auth rule applies to every operation', () => {
    const ops = operations();
    const cols = matrixColumns(ops, webhookEvents());
    assert.equal(cols.filter((c) => c.kind === 'operation').length, ops.length);
    assert.ok(cols.some((c) => c.id === 'webhook:ticket.created'));
    const m = buildRuleMatrix(cols, RULES, []);
    for (const name of [
      'auth.missing-key-rejected',
      'auth.invalid-key-rejected',
      'auth.malformed-authorization-rejected',
      'exchange.ratelimit-headers',
      'ratelimit.plan-limit',
    ]) {
      const row = m.rows.find((r) => r.check === name)!;
      assert.ok(row, name);
      for (const op of ops)
        assert.notEqual(row.cells[op.operationId]!.state, 'n/a', `${name} × ${op.operationId}`);
      assert.equal(row.cells['webhook:ticket.created']!.state, 'n/a');
    }
    const scope = m.rows.find((r) => r.check === 'auth.readonly-forbidden')!;
    const writes = ops.filter((o) => o.scope === 'write').map((o) => o.operationId);
    assert.deepEqual(
      Object.entries(scope.cells)
        .filter(([, c]) => c.state !== 'n/a')
        .map(([id]) => id)
        .sort(),
      [...writes].sort(),
      'scope applies to exactly the x-scope: write operations',
    );
    const lists = m.rows.find((r) => r.check === 'isolation.list')!;
    assert.deepEqual(
      Object.entries(lists.cells)
        .filter(([, c]) => c.state !== 'n/a')
        .map(([id]) => id)
        .sort(),
      ['listContacts', 'listMacros', 'listRules', 'listTickets'],
    );
    const ticketFilters = ops.find((o) => o.operationId === 'listTickets')!.filters;
    assert.deepEqual(
      ticketFilters.map((f) => f.name),
      ['status', 'priority'],
    );
  });

  test('an operation added to a copy of the spec grows the columns, the cells and what the suite sends', () => {
    const before = buildRuleMatrix(matrixColumns(operations(), webhookEvents()), RULES, []);
    const copy = withTags();
    const ops = operations(copy);
    const after = buildRuleMatrix(matrixColumns(ops, webhookEvents(copy)), RULES, []);
    assert.equal(after.columns.length, before.columns.length + 4);
    assert.equal(after.rows.length, before.rows.length, 'the rules are the catalogue’s');
    const every = RULES.filter((r) => r.appliesTo.columns === 'every-operation').length;
    const writes = RULES.filter((r) => r.appliesTo.columns === 'writes').length;
    assert.ok(
      cellsOf(after) >= cellsOf(before) + 4 * every + 2 * writes,
      `cells ${cellsOf(before)} → ${cellsOf(after)}`,
    );
    const getTag = ops.find((o) => o.operationId === 'getTag')!;
    assert.deepEqual(getTag.pathParams, ['tag_id']);
    const sends = matrixPlan(getTag, RULES);
    assert.deepEqual(
      sends.map((s) => s.send),
      ['no-key', 'unknown-key', 'malformed-authorization', 'read-only-key', 'other-workspace'],
    );
    assert.ok(
      sends
        .find((s) => s.send === 'other-workspace')!
        .checks.includes('isolation.get-other-workspace'),
    );
    const deleteTag = ops.find((o) => o.operationId === 'deleteTag')!;
    assert.ok(
      matrixPlan(deleteTag, RULES)
        .find((s) => s.send === 'read-only-key')!
        .checks.includes('auth.readonly-forbidden'),
    );
    const listTags = ops.find((o) => o.operationId === 'listTags')!;
    assert.equal(listTags.list, true);
    assert.ok(
      matrixPlan(listTags, RULES)
        .find((s) => s.send === 'other-workspace')!
        .checks.includes('isolation.list'),
    );
    const col = matrixColumns([getTag], [])[0]!;
    assert.ok(everyAnswerRules(col, RULES).some((r) => r.name === 'exchange.ratelimit-headers'));
  });

  test("the new operation's id is workspace A's object, created through the spec's own creation with a sample body", async () => {
    const copy = withTags();
    const sent: Array<{ method: string; path: string; body?: unknown }> = [];
    const api = {
      send: async (method: string, path: string, o: { body?: unknown } = {}) => {
        sent.push({ method, path, body: o.body });
        return { json: { id: 'tag_1', label: 'x' }, status: 201 };
      },
    } as unknown as ApiClient;
    const objects = new MatrixObjects(copy, operations(copy), {
      readOnly: false,
      tag: { subject: (s) => `[harness t] ${s}`, tags: ['harness'] },
    });
    const getTag = operations(copy).find((o) => o.operationId === 'getTag')!;
    const built = await objects.request(api, getTag);
    assert.ok(!('unreachable' in built), JSON.stringify(built));
    assert.equal(built.path, '/v1/tags/tag_1');
    assert.deepEqual(sent, [{ method: 'POST', path: '/v1/tags', body: { label: 'rule matrix' } }]);
    // Found once: the next cell reuses it.
    await objects.request(api, getTag);
    assert.equal(sent.length, 1);

    const ro = new MatrixObjects(copy, operations(copy), {
      readOnly: true,
      tag: { subject: (s) => s, tags: [] },
    });
    const listed: string[] = [];
    const empty = {
      send: async (method: string, path: string) => {
        listed.push(`${method} ${path}`);
        return { json: { data: [] }, status: 200 };
      },
    } as unknown as ApiClient;
    const none = await ro.request(empty, getTag);
    assert.ok('unreachable' in none);
    assert.match(none.unreachable, /no \/v1\/tags object/);
    assert.deepEqual(listed, ['GET /v1/tags'], 'a read-only run creates nothing: it lists');
  });

  test("the other workspace's write on A's object names its own objects in the body: made once with its key, from the spec", async () => {
    // Applying A's macro to A's ticket is refused for the ticket: only B's own ticket in the body
    // shows whether the macro itself is isolated (the mutant that drops the macro's workspace test).
    const sent: Array<{ key: string; method: string; path: string; body?: unknown }> = [];
    const client = (
      key: string,
      answer = (path: string) => ({ status: 201, id: `${key}_${path}` }),
    ) =>
      ({
        send: async (method: string, path: string, o: { body?: unknown } = {}) => {
          sent.push({ key, method, path, body: o.body });
          const a = answer(path);
          return { status: a.status, json: a.status < 300 ? { id: a.id } : { title: 'no' } };
        },
      }) as unknown as ApiClient;
    const saved: Record<string, unknown>[] = [];
    const store = {
      load: () => ({}),
      save: (o: Record<string, unknown>) => saved.push(structuredClone(o)),
    };
    const tag = { subject: (s: string) => `[harness t] ${s}`, tags: ['harness', 'run-t'] };
    const objects = new MatrixObjects(DOC, operations(), { readOnly: false, tag, store });
    const own = await objects.ownBody(client('B'), 'MacroApply');
    assert.deepEqual(own, { body: { ticket_id: 'B_/v1/tickets' }, names: ['ticket_id'] });
    assert.equal(sent.length, 1);
    assert.deepEqual([sent[0]!.key, sent[0]!.method, sent[0]!.path], ['B', 'POST', '/v1/tickets']);
    const made = sent[0]!.body as { subject: string; tags: string[] };
    assert.match(
      made.subject,
      /^\[harness t\] /,
      'the run’s tag: found and closed by the clean-up',
    );
    assert.deepEqual(made.tags, ['harness', 'run-t']);
    // Once per run: the next cell reuses it, the next worker finds it in the store.
    await objects.ownBody(client('B'), 'MacroApply');
    assert.equal(sent.length, 1);
    const kept = saved.at(-1)!;
    assert.deepEqual(Object.keys(kept), ['other-workspace:ticket_id']);
    const next = new MatrixObjects(DOC, operations(), {
      readOnly: false,
      tag,
      store: { load: () => kept as never, save: () => {} },
    });
    assert.deepEqual(await next.ownBody(client('B'), 'MacroApply'), own);
    assert.equal(sent.length, 1);
    // A's ticket is A's: never the other workspace's from the store.
    const a = await next.object(client('A'), 'ticket_id');
    assert.equal(typeof a === 'string' ? a : a.id, 'A_/v1/tickets');
    // A body that names no object costs nothing.
    assert.equal(await objects.ownBody(client('B'), 'TicketCreate'), undefined);
    assert.equal(sent.length, 2);

    // B's own cannot be had: the caller keeps A's ids, and the reason says why.
    const refused = new MatrixObjects(DOC, operations(), { readOnly: false, tag });
    const no = await refused.ownBody(
      client('B', () => ({ status: 403, id: '' })),
      'MacroApply',
    );
    assert.ok(no && 'unreachable' in no);
    assert.match(no.unreachable, /the other workspace for the matrix answered 403/);
    const ro = new MatrixObjects(DOC, operations(), { readOnly: true, tag });
    const roOwn = await ro.ownBody(client('B'), 'MacroApply');
    assert.ok(roOwn && 'unreachable' in roOwn);
    assert.match(roOwn.unreachable, /read-only/);
    assert.equal(sent.length, 3, 'a read-only run creates nothing for the other workspace');
  });

  describe("a list workspace A shows empty: the list's isolation has something to look for, or is not judged", () => {
    const listRules = operations().find((o) => o.operationId === 'listRules')!;
    const listMacros = operations().find((o) => o.operationId === 'listMacros')!;
    const tag = { subject: (s: string) => `[harness t] ${s}`, tags: ['harness', 'run-t'] };
    /** Workspace A's key: every list empty; a creation answered `created` (201 with an id). */
    const aClient = (sent: string[], created: { status: number; id?: string }) =>
      ({
        send: async (method: string, path: string, o: { body?: unknown } = {}) => {
          sent.push(`${method} ${path}${o.body ? ` ${JSON.stringify(o.body)}` : ''}`);
          if (method === 'GET') return { status: 200, json: { data: [] } };
          return {
            status: created.status,
            json: created.id ? { id: created.id } : { title: 'no' },
          };
        },
      }) as unknown as ApiClient;
    /** The other workspace's key: its lists show `rows` (a leak when A's id is among them). */
    const bClient = (rows: string[]) =>
      ({
        send: async (method: string, path: string) => {
          const bodyText = JSON.stringify({ data: rows.map((id) => ({ id })) });
          const op = operations().find((o) => o.method === method && o.template === path);
          return {
            request: { method, url: `http://x${path}`, headers: {} },
            response: { status: 200, headers: {}, bodyText, json: JSON.parse(bodyText) },
            durationMs: 1,
            operation: op,
          };
        },
      }) as unknown as ApiClient;
    const judge = (sent: Awaited<ReturnType<typeof otherWorkspaceLists>>, op = listRules) => {
      const v = new Verdict(checks, 't');
      const unreached: Array<{ check: string; column: string; reason: string }> = [];
      judgeSent(
        sent,
        ['isolation.list'],
        op,
        (c, ex, args) => v.checkNamed(c, ex, args),
        (check, column, reason) => unreached.push({ check, column, reason }),
      );
      return { results: v.results, unreached };
    };

    test("A has no rule: one is made through the spec's creation (run-tagged, once per run) and B's list is judged on it", async () => {
      const sent: string[] = [];
      const saved: Record<string, AObject>[] = [];
      const store = {
        load: () => ({}),
        save: (o: Record<string, AObject>) => saved.push({ ...o }),
      };
      const all = new MatrixObjects(DOC, operations(), { readOnly: false, tag, store });
      const a = aClient(sent, { status: 201, id: 'rul_A' });
      const leaked = await otherWorkspaceLists({
        api: a,
        b: bClient(['rul_B', 'rul_A']),
        op: listRules,
        path: '/v1/rules',
        objects: [],
        all,
      });
      assert.equal(sent.length, 2, sent.join('\n'));
      assert.equal(sent[0], 'GET /v1/rules');
      const made = JSON.parse(sent[1]!.slice('POST /v1/rules '.length));
      assert.equal(sent[1]!.startsWith('POST /v1/rules '), true);
      assert.match(made.name, /^\[harness t\] /, "the run's tag: found by the clean-up");
      assert.deepEqual(validate('RuleCreate', made), [], 'a valid sample of the spec');
      // Judged on A's rule: B shown it fails the documented rule; B shown only its own passes.
      const failing = judge(leaked);
      assert.deepEqual(
        failing.results.map((r) => [r.check, r.column, r.passed]),
        [['isolation.list', 'listRules', false]],
      );
      assert.match(
        failing.results[0]!.failure!.received,
        /^1 object\(s\) of workspace A on GET \/v1\/rules listed to workspace B$/,
      );
      assert.deepEqual(failing.unreached, []);
      const clean = await otherWorkspaceLists({
        api: a,
        b: bClient(['rul_B']),
        op: listRules,
        path: '/v1/rules',
        objects: [],
        all,
      });
      assert.equal(sent.length, 2, 'made once: the next request reuses it');
      assert.deepEqual(
        judge(clean).results.map((r) => r.passed),
        [true],
      );
      // Kept for a replacement worker: it finds A's rule among the resolved objects, sends nothing.
      const kept = saved.at(-1)!;
      assert.deepEqual(Object.keys(kept), ['/v1/rules']);
      const next = new MatrixObjects(DOC, operations(), {
        readOnly: false,
        tag,
        store: { load: () => kept, save: () => {} },
      });
      assert.deepEqual(
        (await next.resolved()).map((o) => o.id),
        ['rul_A'],
      );
      assert.deepEqual(await next.ownIds(a, listRules, await next.resolved()), ['rul_A']);
      assert.equal(sent.length, 2);
    });

    for (const c of [
      {
        title: 'a read-only run',
        op: listRules,
        readOnly: true,
        created: { status: 201, id: 'rul_A' },
        why: /no \/v1\/rules object to look for in the other workspace's list \(GET \/v1\/rules answered 200, empty; none could be made: a read-only run creates nothing\)/,
        requests: ['GET /v1/rules'],
      },
      {
        title: 'the creation refused',
        op: listRules,
        readOnly: false,
        created: { status: 403 },
        why: /none could be made: creating a \/v1\/rules object of workspace A for the matrix answered 403/,
        requests: ['GET /v1/rules', 'POST /v1/rules'],
      },
      {
        title: 'no creation in the spec (macros)',
        op: listMacros,
        readOnly: false,
        created: { status: 201, id: 'mac_A' },
        why: /no \/v1\/macros object .*none could be made: the spec has no creation on \/v1\/macros/,
        requests: ['GET /v1/macros'],
      },
    ])
      test(`none can be had (${c.title}): not reached with why, and isolation.list is not judged`, async () => {
        const sent: string[] = [];
        const all = new MatrixObjects(DOC, operations(), { readOnly: c.readOnly, tag });
        const lists = await otherWorkspaceLists({
          api: aClient(sent, c.created),
          // B's list shows everything: nothing of A's could be recognised in it anyway.
          b: bClient(['x_1']),
          op: c.op,
          path: c.op.template,
          objects: [],
          all,
        });
        assert.deepEqual(
          sent.map((s) => s.split(' ').slice(0, 2).join(' ')),
          c.requests,
        );
        assert.equal(lists.length, 1, "B's list is still sent: every-answer rules judge it");
        const { results, unreached } = judge(lists, c.op);
        assert.deepEqual(results, [], 'isolation.list is not judged on it');
        assert.equal(unreached.length, 1);
        assert.equal(unreached[0]!.check, 'isolation.list');
        assert.equal(unreached[0]!.column, c.op.operationId);
        assert.match(unreached[0]!.reason, /^not reachable on this target: workspace A has/);
        assert.match(unreached[0]!.reason, c.why);
        // The matrix shows the cell not reached with that reason, not checked.
        const m = buildRuleMatrix(matrixColumns(operations(), []), RULES, results, unreached);
        assert.deepEqual(
          m.rows.find((r) => r.check === 'isolation.list')!.cells[c.op.operationId],
          {
            state: 'not-reached',
            why: unreached[0]!.reason,
          },
        );
      });
  });

  test('isolation.write-other-workspace says whose objects the body named', () => {
    const v = new Verdict(checks, 't');
    const accepted: Exchange = {
      request: { method: 'POST', url: 'http://x/v1/macros/mac_1/apply', headers: {} },
      response: { status: 200, headers: {}, bodyText: '{}' },
      durationMs: 1,
      operation: operations().find((o) => o.operationId === 'applyMacro'),
    };
    const body = "its body naming workspace B's own ticket_id";
    assert.equal(
      v.checkNamed('isolation.write-other-workspace', accepted, {
        operation: 'POST /v1/macros/{macro_id}/apply',
        body,
      }),
      false,
    );
    assert.match(
      v.results[0]!.failure!.received,
      /apply \(its body naming workspace B's own ticket_id\): foreign ticket → 200 \(the write was accepted\)/,
    );
  });

  test('a rule added to the catalogue is a new row and joins the request it names', () => {
    const extra: MatrixRule = {
      name: 'demo.lists-refuse-no-key',
      provenance: 'documented',
      rule: 'demo',
      appliesTo: { columns: 'lists', send: ['no-key'] },
    };
    const rules = matrixRules([...ALL_CHECKS, extra]);
    const m = buildRuleMatrix(matrixColumns(operations(), []), rules, []);
    assert.equal(m.rows.length, RULES.length + 1);
    const listTickets = operations().find((o) => o.operationId === 'listTickets')!;
    const getTicket = operations().find((o) => o.operationId === 'getTicket')!;
    assert.ok(
      matrixPlan(listTickets, rules)
        .find((s) => s.send === 'no-key')!
        .checks.includes(extra.name),
    );
    assert.ok(
      !matrixPlan(getTicket, rules)
        .find((s) => s.send === 'no-key')!
        .checks.includes(extra.name),
    );
  });

  test('every write of the spec gets a valid sample body', () => {
    for (const op of operations().filter((o) => o.requestSchema)) {
      const body = sampleBody(DOC, op.requestSchema!, (name) =>
        name.endsWith('_id') ? 'tkt_1' : undefined,
      );
      assert.deepEqual(
        validate(op.requestSchema!, body),
        [],
        `${op.operationId}: ${JSON.stringify(body)}`,
      );
    }
  });
});

describe('the cells of a run', () => {
  const ex = (operationId: string): Exchange => ({
    request: { method: 'GET', url: 'http://x/v1/tickets', headers: {} },
    response: { status: 401, headers: {}, bodyText: '' },
    durationMs: 1,
    operation: operations().find((o) => o.operationId === operationId),
  });

  test('each result carries its column: the operation, or the event of a delivery', () => {
    const v = new Verdict(checks, 't');
    v.check('auth.missing-key-rejected', ex('listTickets'));
    const delivery: Exchange = {
      request: {
        method: 'POST',
        url: 'http://receiver/hook',
        headers: { 'content-type': 'application/json', 'x-service-signature': 'sha256=00' },
        body: '{"event":"ticket.closed","ticket":{"id":"t"}}',
      },
      response: { status: 200, headers: {}, bodyText: '' },
      durationMs: 0,
    };
    v.check('webhook.content-type', delivery, {
      raw: new TextEncoder().encode(delivery.request.body),
    });
    assert.deepEqual(
      v.results.map((r) => r.column),
      ['listTickets', 'webhook:ticket.closed'],
    );
  });

  test('checked (with counts), not applicable (why) and not reached (the recorded reason)', () => {
    const results = [
      judgement('auth.missing-key-rejected', 'getTicket', true),
      judgement('auth.missing-key-rejected', 'getTicket', false),
      judgement('auth.missing-key-rejected', 'listTickets', true),
    ];
    const m = buildRuleMatrix(matrixColumns(operations(), webhookEvents()), RULES, results, [
      {
        check: 'auth.readonly-forbidden',
        column: 'createTicket',
        reason: 'not run: needs HARNESS_READONLY_KEY',
      },
    ]);
    const row = (n: string) => m.rows.find((r) => r.check === n)!;
    assert.deepEqual(row('auth.missing-key-rejected').cells.getTicket, {
      state: 'checked',
      passed: 1,
      failed: 1,
    });
    assert.deepEqual(row('auth.readonly-forbidden').cells.createTicket, {
      state: 'not-reached',
      why: 'not run: needs HARNESS_READONLY_KEY',
    });
    const na = row('auth.readonly-forbidden').cells.listTickets!;
    assert.equal(na.state, 'n/a');
    assert.match((na as { why: string }).why, /x-scope: read/);
    assert.equal(row('auth.missing-key-rejected').cells.createRule!.state, 'not-reached');
    assert.equal(m.counts.failed, 1);
    assert.ok(m.counts.notReached > 0 && m.counts.notApplicable > 0);
    // Documented rules first.
    const firstAssumed = m.rows.findIndex((r) => r.provenance !== 'documented');
    assert.ok(m.rows.slice(firstAssumed).every((r) => r.provenance !== 'documented'));
  });

  test("a 429 is no answer of the request kind's rules: their cell is not reached, kept by the target; the rest are judged", () => {
    const op = operations().find((o) => o.operationId === 'listTickets')!;
    const answered = (status: number): Exchange => ({
      ...ex('listTickets'),
      response: { status, headers: {}, bodyText: '' },
    });
    const v = new Verdict(checks, 't');
    const unreached: Array<{ check: string; column: string; reason: string; byTarget?: boolean }> =
      [];
    const kind = ['auth.missing-key-rejected', 'auth.missing-key-401'];
    judgeSent(
      [
        { ex: answered(429), args: { operation: 'GET /v1/tickets' } },
        { ex: answered(401), args: { operation: 'GET /v1/tickets' } },
      ],
      kind,
      op,
      (c, e, args) => v.checkNamed(c, e, args),
      (check, column, reason, byTarget) => unreached.push({ check, column, reason, byTarget }),
    );
    assert.deepEqual(
      unreached.map((u) => [u.check, u.column, u.reason, u.byTarget]),
      kind.map((c) => [c, 'listTickets', RATE_LIMITED, true]),
    );
    assert.deepEqual(
      v.results.map((r) => [r.check, r.passed]),
      kind.map((c) => [c, true]),
      'the 401 is judged by both, the 429 by neither',
    );
    const m = buildRuleMatrix(matrixColumns([op], []), RULES, [], unreached);
    assert.deepEqual(
      m.rows.find((r) => r.check === 'auth.missing-key-rejected')!.cells.listTickets,
      {
        state: 'not-reached',
        why: RATE_LIMITED,
        byTarget: true,
      },
    );
  });
});
