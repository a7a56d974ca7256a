/**
 * The rule × operation matrix: every rule of the catalogue that declares where it applies
 * (core/checks/applies-to.ts) judged on every operation of the spec it applies to — one test per
 * operation, read from spec/openapi.yaml, never listed here. Each test sends the matrix's requests
 * its rules ask for (no key, an unknown key, a malformed Authorization, the read-only key, the other
 * workspace's key on workspace A's real object and on an unknown id, on a list and each filter) and
 * applies those rules; the rules that judge every answer (rate-limit headers, the key's plan, no
 * 5xx …) judge these answers too, like every other answer of the suite. A cell this target cannot
 * reach is recorded with its reason (`notReached`); report/rule-matrix.ts builds the table.
 *
 * Cost: unauthenticated requests spend no key's budget; the read-only key gets one request per
 * operation, the other workspace's key two per operation with a path id and one per list and
 * filter; workspace A's key only what the shared objects need (one ticket, one contact, the macro
 * and rule lists), created in the first test of the worker. The tests run in order in one worker
 * (reads first, deletions last), so one set of objects serves the whole run.
 */
import { randomBytes } from 'node:crypto';
import { ALL_CHECKS } from '../core/checks/all.ts';
import {
  type MatrixArgs,
  type MatrixSend,
  everyAnswerRules,
  matrixColumns,
  matrixPlan,
  matrixRules,
} from '../core/checks/applies-to.ts';
import type { Exchange } from '../core/checks/types.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import { BOGUS_KEY_PREFIX } from '../core/redact.ts';
import { loadSpec } from '../core/spec/load-spec.ts';
import { type OperationSpec, operations } from '../core/spec/operations.ts';
import { missingCredential } from '../core/target/resolve-target.ts';
import { type Target, test } from './fixtures.ts';
import { observeCrossCutting } from './helpers.ts';
import { type AObject, MatrixObjects, unknownLike, withLastId } from './matrix-objects.ts';

const DOC = loadSpec();
const OPS = operations();
const RULES = matrixRules(ALL_CHECKS);

/** Reads first, then writes, deletions last: nothing a test needs is gone before it runs. */
const rank = (op: OperationSpec) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);

/** Workspace A's objects, found once per worker (module state: one worker, one target). */
let shared: MatrixObjects | undefined;

interface Sent {
  ex: Exchange;
  args: MatrixArgs;
}

interface SendContext {
  api: ApiClient;
  op: OperationSpec;
  target: Target;
  path: string;
  body?: unknown;
  objects: AObject[];
  all: MatrixObjects;
}

const label = (op: OperationSpec) => `${op.method} ${op.template}`;

/** Why a matrix request cannot be sent to this target, or undefined. */
function cannotSend(send: MatrixSend, op: OperationSpec, target: Target): string | undefined {
  // A deployment that wrongly accepted it would write: never in a read-only run.
  if (op.scope === 'write' && target.cfg.readOnly)
    return 'not sent: a write, and the run is read-only (HARNESS_READ_ONLY=1)';
  if (send === 'read-only-key')
    return missingCredential(target.resolved, target.cfg, ['readOnlyKey']);
  if (send === 'other-workspace')
    return missingCredential(target.resolved, target.cfg, ['otherWorkspaceKey']);
  return undefined;
}

/** The ids of the rows of a list answer. */
function rowIds(ex: Exchange): string[] {
  const data = (ex.response?.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data)
    ? data
        .map((r) => (r as { id?: unknown })?.id)
        .filter((id): id is string => typeof id === 'string')
    : [];
}

/** Each request kind of the matrix, sent once per operation (core/checks/applies-to.ts). */
const SENDERS: Record<MatrixSend, (c: SendContext) => Promise<Sent[]>> = {
  'no-key': async ({ api, op, path, body }) => [
    { ex: await api.send(op.method, path, { key: null, body }), args: { operation: label(op) } },
  ],
  'unknown-key': async ({ api, op, path, body }) => {
    // Invented to be refused, never a secret: reports and repros show it as sent.
    const key = `${BOGUS_KEY_PREFIX}${randomBytes(12).toString('hex')}`;
    return [{ ex: await api.send(op.method, path, { key, body }), args: { operation: label(op) } }];
  },
  'malformed-authorization': async ({ api, op, path, body }) => {
    const forms = [`Basic ${Buffer.from('harness:not-a-key').toString('base64')}`, 'Bearer'];
    const out: Sent[] = [];
    for (const authorization of forms) {
      const ex = await api.send(op.method, path, { key: null, headers: { authorization }, body });
      out.push({ ex, args: { operation: label(op) } });
    }
    return out;
  },
  'read-only-key': async ({ api, op, path, body, target }) => [
    {
      ex: await api.send(op.method, path, { key: target.keys.readOnly, body }),
      args: { operation: label(op) },
    },
  ],
  'other-workspace': async ({ api, op, path, body, target, objects, all }) => {
    const b = api.withKey(target.keys.otherWorkspace);
    const out: Sent[] = [];
    const named = objects[objects.length - 1];
    if (named) {
      const foreign = await b.send(op.method, path, { body });
      const unknown = await b.send(op.method, withLastId(op, objects, unknownLike(named.id)), {
        body,
      });
      out.push({ ex: foreign, args: { operation: label(op), ticket: named.json, unknown } });
    }
    if (op.list) {
      const fixtures = [...objects, ...(await all.resolved())];
      const foreignIds = await all.ownIds(api, op, fixtures);
      const mine = fixtures.find((f) => f.collection === op.template);
      // A filter on the value workspace A's own object has: a leak would show there first.
      const queries: Array<Record<string, string>> = [
        {},
        ...op.filters.map((f) => {
          const v = mine?.json[f.name];
          return { [f.name]: typeof v === 'string' && f.values.includes(v) ? v : f.values[0]! };
        }),
      ];
      for (const query of queries) {
        const ex = await b.send(op.method, path, { query, body });
        const what = Object.keys(query).length
          ? `${label(op)}?${new URLSearchParams(query)}`
          : label(op);
        out.push({ ex, args: { operation: what, foreignIds, seen: rowIds(ex) } });
      }
    }
    return out;
  },
};

/** Why the plan rule has nothing to hold on this target, or undefined. */
function noDeclaredPlan(target: Target): string | undefined {
  const { full, readOnly, otherWorkspace } = target.keys;
  const declared = [full, readOnly, otherWorkspace].some(
    (k) => k !== undefined && target.planOf(`Bearer ${k}`) !== undefined,
  );
  return declared
    ? undefined
    : 'no key of this run is declared under a plan (list HARNESS_API_KEY in HARNESS_TEAM_KEYS or HARNESS_GROWTH_KEYS; Enterprise: HARNESS_ENTERPRISE_KEYS with HARNESS_ENTERPRISE_RATE)';
}

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));

test.describe('rule × operation matrix', () => {
  // In order, in one worker: the objects of workspace A are found once for every operation.
  test.describe.configure({ mode: 'default' });
  for (const op of [...OPS].sort((a, b) => rank(a) - rank(b))) {
    const column = matrixColumns([op], [])[0]!;
    const plan = matrixPlan(op, RULES);
    const every = everyAnswerRules(column, RULES);
    const names = [...new Set([...plan.flatMap((p) => p.checks), ...every.map((r) => r.name)])];
    if (names.length === 0) continue;
    test(`${label(op)} (${op.operationId})`, {
      tag: names.map((n) => `@${n}`),
    }, async ({ api, verdict, target, tag, exchanges, notReached }) => {
      shared ??= new MatrixObjects(DOC, OPS, { readOnly: target.cfg.readOnly, tag });
      const reasons: string[] = [];
      const miss = (checks: readonly string[], reason: string) => {
        for (const c of checks) notReached(c, op.operationId, reason);
        reasons.push(reason);
      };
      for (const { send, checks } of plan) {
        const why = cannotSend(send, op, target);
        if (why) {
          miss(checks, why);
          continue;
        }
        const built = await shared.request(api, op);
        if ('unreachable' in built) {
          miss(checks, `not reachable on this target: ${built.unreachable}`);
          continue;
        }
        for (const { ex, args } of await SENDERS[send]({
          api,
          op,
          target,
          all: shared,
          ...built,
        })) {
          for (const c of checks) verdict.checkNamed(c, ex, args);
        }
      }
      const planless = noDeclaredPlan(target);
      if (planless)
        miss(
          every.filter((r) => r.appliesTo.requires?.includes('declared-plan')).map((r) => r.name),
          planless,
        );
      const answered = exchanges.some(
        (e) => e.operation?.operationId === op.operationId && e.response,
      );
      if (!answered) {
        // Nothing was sent for this operation: its every-answer cells say why.
        const why = reasons[0] ?? 'no request of the matrix was answered';
        miss(
          every.map((r) => r.name),
          why,
        );
        test.skip(true, why.startsWith('not ') ? why : `not run: ${why}`);
      }
    });
  }
});
