/**
 * The rule × operation matrix: every rule of the catalogue that declares where it applies
 * (core/checks/applies-to.ts) judged on every operation of the spec it applies to — the
 * operations read from spec/openapi.yaml, never listed here. One test per request kind of the
 * matrix (no key, an unknown key, a malformed Authorization, the read-only key, the other
 * workspace's key on workspace A's real object and on an unknown id, on a list and each filter)
 * sends it to every operation whose rules ask for it and applies those rules; the rules that judge
 * every answer (rate-limit headers, the key's plan, no 5xx …) judge these answers too, like every
 * other answer of the suite. A cell this target cannot reach is recorded with its reason
 * (`notReached`); report/rule-matrix.ts builds the table.
 *
 * Cost: unauthenticated requests spend no key's budget; the read-only key gets one request per
 * operation, the other workspace's key two per operation with a path id and one per list and
 * filter, for a count (the summary report) the count and its own list walked to the end (one page
 * on the reference; at most matrix-count.ts's cap, else not reached), and one creation (and its clean-up close) of its own object of each collection a by-id
 * body names (its own ticket, for applying A's macro; matrix-objects.ts `ownBody`); workspace A's
 * key only what the shared objects need (one ticket, one contact, the macro
 * and rule lists), found in the first test and kept in the run's raw directory, so one set of
 * objects serves the whole run even when a failed test makes Playwright replace the worker — and,
 * for a list workspace A shows empty (a fresh staging workspace; the reference seeds one rule per
 * workspace), one object made through the spec's creation on it (one more request, in the other
 * workspace's test), so the list's
 * isolation has something of A's to look for; when none can be made the cell is not reached.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ALL_CHECKS } from '../core/checks/all.ts';
import {
  MATRIX_SENDS,
  type MatrixSend,
  everyAnswerRules,
  matrixColumns,
  matrixPlan,
  matrixRules,
} from '../core/checks/applies-to.ts';
import type { Verdict } from '../core/checks/verdict.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import { BOGUS_KEY_PREFIX } from '../core/redact.ts';
import { loadSpec } from '../core/spec/load-spec.ts';
import { type OperationSpec, operations } from '../core/spec/operations.ts';
import { missingCredential } from '../core/target/resolve-target.ts';
import { asShared, runFile, type Target, test } from './fixtures.ts';
import { observeCrossCutting } from './helpers.ts';
import {
  type AObject,
  MatrixObjects,
  type ObjectStore,
  unknownLike,
  withLastId,
} from './matrix-objects.ts';
import { otherWorkspaceCounts } from './matrix-count.ts';
import { judgeSent, label, otherWorkspaceLists, type Sent } from './matrix-sent.ts';

const DOC = loadSpec();
const OPS = operations();
const RULES = matrixRules(ALL_CHECKS);

/** Reads first, then writes, deletions last: nothing a test needs is gone before it runs. */
const rank = (op: OperationSpec) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);

/** Workspace A's objects, found once per worker (module state: one worker, one target). */
let shared: MatrixObjects | undefined;

interface SendContext {
  api: ApiClient;
  op: OperationSpec;
  target: Target;
  path: string;
  body?: unknown;
  objects: AObject[];
  all: MatrixObjects;
}

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

/**
 * What the rules of a request refused for its key read: the operation, and workspace A's object
 * its path names (auth.refusal-carries-no-data looks for it in the refusal).
 */
const refusedArgs = (op: OperationSpec, objects: readonly AObject[]) => {
  const named = objects[objects.length - 1];
  return { operation: label(op), ...(named ? { ticket: named.json } : {}) };
};

/** Each request kind of the matrix, sent once per operation (core/checks/applies-to.ts). */
const SENDERS: Record<MatrixSend, (c: SendContext) => Promise<Sent[]>> = {
  'no-key': async ({ api, op, path, body, objects }) => [
    { ex: await api.send(op.method, path, { key: null, body }), args: refusedArgs(op, objects) },
  ],
  'unknown-key': async ({ api, op, path, body, objects }) => {
    // Invented to be refused, never a secret: reports and repros show it as sent.
    const key = `${BOGUS_KEY_PREFIX}${randomBytes(12).toString('hex')}`;
    return [{ ex: await api.send(op.method, path, { key, body }), args: refusedArgs(op, objects) }];
  },
  'malformed-authorization': async ({ api, op, path, body, objects }) => {
    // One malformed form per operation, the two in turn along the spec's operations: every cell
    // is judged, each form on half the operations — Basic on the tickets' list, the first
    // (a gate run must fit a Team key's burst).
    const forms = [`Basic ${Buffer.from('harness:not-a-key').toString('base64')}`, 'Bearer'];
    const authorization = forms[Math.max(0, OPS.indexOf(op)) % forms.length]!;
    const ex = await api.send(op.method, path, { key: null, headers: { authorization }, body });
    return [{ ex, args: refusedArgs(op, objects) }];
  },
  'read-only-key': async ({ api, op, path, body, target }) => [
    {
      // A list is read a page of its smallest size: wherever the workspace holds two objects the
      // answer must also say where the next page starts, so computing that is exercised on every
      // paged list of the spec, not only where a test walks pages (a deployment answering 5xx for
      // it on contacts would pass a gate that never read a contacts page of one).
      ex: await api.send(op.method, path, {
        key: target.keys.readOnly,
        body,
        ...(op.pageMin !== undefined ? { query: { limit: op.pageMin } } : {}),
      }),
      args: { operation: label(op) },
    },
  ],
  'other-workspace': async ({ api, op, path, body, target, objects, all }) => {
    const b = api.withKey(target.keys.otherWorkspace);
    const out: Sent[] = [];
    const named = objects[objects.length - 1];
    if (named) {
      // Its body names B's own objects: the only foreign one is the path's. With A's there, a
      // deployment refuses it for the body (B applying A's macro to A's ticket: the ticket's
      // 404) and whether the path's object is isolated is never seen. A's ids are what is left
      // when B's own cannot be had (today's request, and the failure says so).
      const own = op.requestSchema ? await all.ownBody(b, op.requestSchema) : undefined;
      const sentBody = own && 'body' in own ? own.body : body;
      const bodyNote =
        own === undefined
          ? undefined
          : 'body' in own
            ? `its body naming workspace B's own ${own.names.join(', ')}`
            : `its body naming workspace A's ${own.names.join(', ')}: B's own could not be had (${own.unreachable})`;
      const foreign = await b.send(op.method, path, { body: sentBody });
      const unknown = await b.send(op.method, withLastId(op, objects, unknownLike(named.id)), {
        body: sentBody,
      });
      out.push({
        ex: foreign,
        args: {
          operation: label(op),
          ticket: named.json,
          unknown,
          ...(bodyNote ? { body: bodyNote } : {}),
        },
      });
    }
    // A list: B's list and its filters, judged on A's objects of that collection (or, when A
    // has none, not judged by the list's rule: matrix-sent.ts).
    if (op.list) out.push(...(await otherWorkspaceLists({ api, b, op, path, body, objects, all })));
    // A count of a list (the summary report): B's own, then B's list walked to its end.
    if (op.counts.length > 0) {
      const key = { otherKey: target.keys.otherWorkspace, cfg: target.cfg };
      out.push(
        ...(await otherWorkspaceCounts({ api, b, op, ops: OPS, path, objects, all, ...key })),
      );
    }
    return out;
  },
};

/**
 * What a request kind's answers show of the gaps (U17 the missing-key answer, U18 the unknown-key
 * one, U19 a read-only write's refusal, U21 another workspace's object beside an unknown one), for
 * snapshot.json: recorded here, where the requests are sent, once per probe id — the matrix
 * sends them on every operation, and a standalone test sending one of them again would only
 * spend the key's budget. Problem bodies of the rejections are judged here too (U16).
 */
function observe(
  send: MatrixSend,
  op: OperationSpec,
  sent: readonly Sent[],
  verdict: Verdict,
  probe: (gap: string, id: string, value: unknown, label?: string) => void,
): void {
  const first = sent[0]?.ex;
  if (!first) return;
  if (send === 'no-key' || send === 'unknown-key')
    for (const { ex } of sent) verdict.check('validation.problem-body', ex);
  if (send === 'no-key') {
    probe('U17', 'missing-key-status', first.response?.status ?? null);
    // Scheme and parameter names only: the redactor masks a raw `Bearer realm=…` value.
    const challenge = first.response?.headers['www-authenticate'];
    probe(
      'U17',
      'missing-key-challenge',
      challenge === undefined
        ? null
        : {
            scheme: challenge.split(/\s+/)[0],
            // Each parameter name starts a run of letters: no rescan of a long run per letter.
            params: [...challenge.matchAll(/(?<![a-z_])([a-z_]+)=/gi)].map((m) => m[1]),
          },
      'WWW-Authenticate without a key (scheme, parameter names)',
    );
  }
  if (send === 'unknown-key') probe('U18', 'invalid-key-status', first.response?.status ?? null);
  if (send === 'read-only-key' && op.scope === 'write')
    probe('U19', `readonly-write-status:${op.operationId}`, first.response?.status ?? null);
  const byId = sent.find((s) => s.args.unknown);
  if (send === 'other-workspace' && byId?.args.unknown && op.method === 'GET') {
    const foreign = byId.ex.response?.status ?? null;
    const unknown = byId.args.unknown.response?.status ?? null;
    probe('U21', 'foreign-ticket-status', foreign);
    probe('U21', 'unknown-ticket-status', unknown);
    probe('U21', 'foreign-same-as-unknown', foreign === unknown);
  }
}

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

/** One test of the matrix: a request kind over every operation (deletions apart, last). */
interface Group {
  title: string;
  sends: readonly MatrixSend[];
  ops: OperationSpec[];
}

/**
 * A test per request kind, each over every operation (reads first, then writes): a deployment
 * broken on one kind fails one test, and a test that fails costs Playwright one worker. The
 * deletions come last, all kinds at once: one a faulty deployment accepted must not take away
 * the object the other cells read.
 */
function groups(): Group[] {
  const ordered = [...OPS].sort((a, b) => rank(a) - rank(b));
  const kept = ordered.filter((op) => op.method !== 'DELETE');
  const deletions = ordered.filter((op) => op.method === 'DELETE');
  const sends = Object.keys(MATRIX_SENDS) as MatrixSend[];
  return [
    ...sends.map((send) => ({
      title: `${MATRIX_SENDS[send].title}: every operation its rules apply to`,
      sends: [send],
      ops: kept,
    })),
    ...(deletions.length
      ? [{ title: 'every request kind on the deletions (last)', sends, ops: deletions }]
      : []),
  ];
}

/**
 * The objects' file of this run, project and deployment: the next worker of the project reads
 * it (an embedded deployment is a new one in each worker, at another address: nothing to share).
 */
function objectStore(project: string, baseUrl: string): ObjectStore {
  const id = createHash('sha256').update(`${project}\u0000${baseUrl}`).digest('hex').slice(0, 16);
  const file = runFile(`shared-objects-${id}.json`);
  return {
    load: () => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Record<string, AObject>;
      } catch {
        return {};
      }
    },
    save: (objects) => writeFileSync(file, `${JSON.stringify(objects)}\n`, { mode: 0o600 }),
  };
}

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));

test.describe('rule × operation matrix', () => {
  // In order, in one worker: workspace A's objects are found once for the whole matrix.
  test.describe.configure({ mode: 'default' });
  for (const group of groups()) {
    const plans = group.ops.map((op) => ({
      op,
      sends: matrixPlan(op, RULES).filter((p) => group.sends.includes(p.send)),
      every: everyAnswerRules(matrixColumns([op], [])[0]!, RULES),
    }));
    // Tagged with the rules it sends for, and the every-answer rules with a requirement the
    // matrix reports (the key's declared plan). The other every-answer rules judge each answer
    // of every test already: the detection matrix need not run these tests for their faults.
    const names = [
      ...new Set(
        plans.flatMap((p) => [
          ...p.sends.flatMap((s) => s.checks),
          ...p.every.filter((r) => r.appliesTo.requires?.length).map((r) => r.name),
          // The rejections' problem bodies, judged where they are sent (observe).
          ...p.sends
            .filter((s) => s.send === 'no-key' || s.send === 'unknown-key')
            .map(() => 'validation.problem-body'),
        ]),
      ),
    ];
    if (!plans.some((p) => p.sends.length > 0)) continue;
    test(
      group.title,
      {
        tag: names.map((n) => `@${n}`),
      },
      async ({ api, verdict, target, tag, exchanges, notReached, probe }, testInfo) => {
        // Each probe id once (the first operation that shows it: reads come first, the tickets'
        // first among them, as the standalone tests these replace recorded them).
        const probed = new Set<string>();
        const probeOnce = (gap: string, id: string, value: unknown, label?: string) => {
          if (probed.has(`${gap}\u0000${id}`)) return;
          probed.add(`${gap}\u0000${id}`);
          probe(gap, id, value, label);
        };
        // Room for every request of the group on a slow deployment (rate waits extend it too).
        testInfo.setTimeout(Math.max(testInfo.timeout, 30_000 + 3_000 * plans.length * 4));
        shared ??= new MatrixObjects(DOC, OPS, {
          readOnly: target.cfg.readOnly,
          tag,
          store: objectStore(testInfo.project.name, target.baseUrl),
        });
        const planless = noDeclaredPlan(target);
        const skipped: string[] = [];
        for (const { op, sends, every } of plans) {
          const reasons: string[] = [];
          const miss = (checks: readonly string[], reason: string) => {
            for (const c of checks) notReached(c, op.operationId, reason);
            reasons.push(reason);
          };
          for (const { send, checks } of sends) {
            const why = cannotSend(send, op, target);
            if (why) {
              miss(checks, why);
              continue;
            }
            // Finding or making workspace A's objects is the worker's set-up (asShared).
            const all = shared;
            const built = await asShared(() => all.request(api, op));
            if ('unreachable' in built) {
              miss(checks, `not reachable on this target: ${built.unreachable}`);
              continue;
            }
            const sent = await SENDERS[send]({ api, op, target, all: shared, ...built });
            judgeSent(
              sent,
              checks,
              op,
              (c, ex, args) => verdict.checkNamed(c, ex, args),
              notReached,
            );
            observe(send, op, sent, verdict, probeOnce);
          }
          const planRules = every.filter((r) => r.appliesTo.requires?.includes('declared-plan'));
          if (planless)
            miss(
              planRules.map((r) => r.name),
              planless,
            );
          const answered = exchanges.some(
            (e) => e.operation?.operationId === op.operationId && e.response,
          );
          // Nothing of this group reached the operation: its every-answer cells say why (another
          // test that does reach it makes them checked).
          if (!answered && reasons[0]) {
            miss(
              every.map((r) => r.name),
              reasons[0],
            );
            skipped.push(reasons[0]);
          }
        }
        const ran = exchanges.some((e) => e.response);
        if (!ran) {
          const why = skipped[0] ?? 'no request of the matrix was answered';
          test.skip(true, why.startsWith('not ') ? why : `not run: ${why}`);
        }
      },
    );
  }
});
