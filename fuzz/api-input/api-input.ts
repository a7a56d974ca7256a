/**
 * Input fuzz of the API's write operations: bodies derived from the spec's request schemas —
 * valid, at the limits, and invalid in one way each (fuzz/arbitraries/api-body-arb.ts) — sent to
 * create a ticket (TicketCreate), update one (TicketUpdate, as a JSON merge patch) and add a
 * message (MessageCreate).
 *
 * The property, per case: the answer is a 2xx with a representation valid against the spec
 * (Ticket, Message), or a 4xx with a valid problem body whose `status` is the HTTP status —
 * never a 5xx, never no answer; and nothing is half done: after a rejected create the
 * workspace's ticket count is unchanged (after an accepted one it is one more), after a rejected
 * update or message the ticket is unchanged, an accepted update shows the patched fields.
 *
 * Whether a body is schema-valid is decided by the spec's own validator, not by the generator;
 * the result counts accepted and rejected bodies of each class (a service may be stricter or more
 * lenient than the schema — that is reported, not failed).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { type BodyCase, bodyCaseArb, encodeBodyCase } from '../arbitraries/api-body-arb.ts';
import { fuzzSeed } from '../shared/seed.ts';
import { redact, registerSecret } from '../../src/redact.ts';
import { validate } from '../../src/schemas/registry.ts';
import { createHttp, type HttpExchange } from '../shared/http.ts';
import { componentSchema, resolveSpecRef } from './spec-schemas.ts';
import {
  API_INPUT_RULES,
  type BrokenRule,
  type CaseProblem,
  catalogueRule,
  problem,
} from './rules.ts';
import { renderExchange } from '../shared/transcript.ts';

export type ApiInputOperation = 'createTicket' | 'updateTicket' | 'addMessage';

export const API_INPUT_OPERATIONS: readonly ApiInputOperation[] = [
  'createTicket',
  'updateTicket',
  'addMessage',
];

/** Options of {@link runApiInputFuzz}. */
export interface ApiInputFuzzOptions {
  /** The deployment's API base URL (no trailing `/v1`). */
  baseUrl: string;
  /** A full-access API key. Its workspace gets the tickets the fuzz creates. */
  apiKey: string;
  /** Cases per operation (fast-check `numRuns`, shrinking not counted). Default 100. */
  numRuns?: number;
  /** Seed; default `FC_SEED` or the harness default. */
  seed?: number;
  /** Wall-clock budget of the whole run, shrinking included, in seconds. Default 60. */
  maxSeconds?: number;
  /** Operations to fuzz. Default all three. */
  operations?: readonly ApiInputOperation[];
  /** Body size limit of the API in bytes (U26); the over-limit case exceeds it. Default 1 MiB. */
  bodyLimit?: number;
  /** Per-request timeout. Default 10 000 ms. */
  timeoutMs?: number;
}

export interface ApiInputStats {
  /** Cases per body kind (valid, drop-required, …). */
  kinds: Record<string, number>;
  /** Answers per HTTP status ("none" for no answer). */
  statuses: Record<string, number>;
  /** Schema-valid bodies (per the spec's validator) accepted / rejected. */
  schemaValid: { accepted: number; rejected: number };
  /** Schema-invalid bodies (or not JSON at all) accepted / rejected. */
  schemaInvalid: { accepted: number; rejected: number };
  /** Examples (first 5 each) where the service disagreed with the schema: stricter or more lenient. */
  disagreements: Array<{ kind: string; note: string; schemaValid: boolean; status: string }>;
}

export interface ApiInputOperationResult {
  operation: ApiInputOperation;
  /** The request schema the bodies are derived from. */
  schema: string;
  status: 'passed' | 'failed' | 'skipped';
  passed: boolean;
  /** Cases run (shrinking excluded). */
  cases: number;
  shrinks: number;
  interrupted?: boolean;
  stats: ApiInputStats;
  /** Why the minimal counterexample fails. */
  reason?: string;
  /** The rule it breaks: a registered check where the contract suite judges the same rule. */
  broken?: BrokenRule;
  /** The minimal counterexample: what the body is, and the exchange as an HTTP transcript (key redacted). */
  counterexample?: { kind: string; note: string; transcript: string };
}

export interface ApiInputFuzzResult {
  name: 'api-input-fuzz';
  passed: boolean;
  seed: number;
  durationMs: number;
  requests: number;
  /** How the ticket count was read: the summary report, or a walk of the list. */
  countedVia: 'reports-summary' | 'list-walk';
  operations: ApiInputOperationResult[];
}

interface OperationSpec {
  schema: string;
  method: 'POST' | 'PATCH';
  /** The media type sent by default; `alsoAccepted` lists the others the spec allows. */
  mediaType: string;
  alsoAccepted?: string[];
  success: 'Ticket' | 'Message';
  successStatuses: number[];
}

const OPERATIONS: Record<ApiInputOperation, OperationSpec> = {
  createTicket: {
    schema: 'TicketCreate',
    method: 'POST',
    mediaType: 'application/json',
    success: 'Ticket',
    successStatuses: [200, 201],
  },
  updateTicket: {
    schema: 'TicketUpdate',
    method: 'PATCH',
    mediaType: 'application/merge-patch+json',
    alsoAccepted: ['application/json'],
    success: 'Ticket',
    successStatuses: [200],
  },
  addMessage: {
    schema: 'MessageCreate',
    method: 'POST',
    mediaType: 'application/json',
    success: 'Message',
    successStatuses: [200, 201],
  },
};

const SEED_TICKET = {
  subject: 'api input fuzz target',
  requester: { email: 'fuzz@example.com', name: 'Fuzz Target' },
};

function emptyStats(): ApiInputStats {
  return {
    kinds: {},
    statuses: {},
    schemaValid: { accepted: 0, rejected: 0 },
    schemaInvalid: { accepted: 0, rejected: 0 },
    disagreements: [],
  };
}

function issuesText(schema: string, value: unknown): string | undefined {
  const issues = validate(schema, value);
  if (issues.length === 0) return undefined;
  return issues
    .slice(0, 3)
    .map((i) => `${i.pointer || '/'} ${i.message}`)
    .join('; ');
}

/** True when `contentType` names a media type the operation's spec lists, UTF-8 or no charset. */
function acceptsMediaType(spec: OperationSpec, contentType: string | null): boolean {
  if (contentType === null) return false;
  const [type = '', ...params] = contentType.toLowerCase().split(';');
  const charset = params.map((p) => p.trim()).find((p) => p.startsWith('charset='));
  if (charset !== undefined && charset !== 'charset=utf-8') return false;
  return [spec.mediaType, ...(spec.alsoAccepted ?? [])].includes(type.trim());
}

/** The JSON value a case sends (raw text parsed), or `undefined` when it is not JSON. */
function sentValue(c: BodyCase): unknown {
  if (c.raw === undefined) return c.json;
  try {
    // RFC 8259 lets a parser ignore a leading byte-order mark; a service that does is right.
    return JSON.parse(c.raw.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/** Which rule the answer breaks (the response half of the property), and how; or undefined. */
function judgeAnswer(ex: HttpExchange, spec: OperationSpec): CaseProblem | undefined {
  if (ex.status === undefined)
    return problem(API_INPUT_RULES.answered, `no answer (${ex.error ?? 'connection lost'})`);
  if (ex.status >= 500)
    return problem(
      catalogueRule('exchange.no-5xx'),
      `${ex.status}: a server error for a client's body`,
    );
  const status = catalogueRule('exchange.documented-status');
  if (ex.status >= 200 && ex.status < 300) {
    if (!spec.successStatuses.includes(ex.status))
      return problem(
        status,
        `${ex.status}; a success here is ${spec.successStatuses.join(' or ')}`,
      );
    const bad = issuesText(spec.success, ex.json);
    return bad
      ? problem(
          catalogueRule('exchange.response-schema'),
          `${ex.status} with a body that is not a valid ${spec.success}: ${bad}`,
        )
      : undefined;
  }
  if (ex.status >= 400) {
    const problemBody = catalogueRule('validation.problem-body');
    if (ex.json === undefined)
      return problem(problemBody, `${ex.status} with a body that is not JSON`);
    const bad = issuesText('Problem', ex.json);
    if (bad)
      return problem(problemBody, `${ex.status} with a body that is not a valid Problem: ${bad}`);
    const said = (ex.json as { status?: unknown }).status;
    return said === ex.status
      ? undefined
      : problem(
          problemBody,
          `${ex.status} with a problem body whose status is ${JSON.stringify(said)}`,
        );
  }
  return problem(status, `${ex.status}: neither a success nor a client error`);
}

export async function runApiInputFuzz(options: ApiInputFuzzOptions): Promise<ApiInputFuzzResult> {
  const {
    apiKey,
    numRuns = 100,
    maxSeconds = 60,
    operations = API_INPUT_OPERATIONS,
    bodyLimit = 1024 * 1024,
    timeoutMs = 10_000,
  } = options;
  if (!apiKey) throw new Error('api input fuzz: the API key is empty');
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new Error(`api input fuzz: numRuns must be a positive integer, got ${numRuns}`);
  registerSecret(apiKey);
  const seed = options.seed ?? fuzzSeed();
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  const http = createHttp({ baseUrl: options.baseUrl, timeoutMs });
  const auth = { authorization: `Bearer ${apiKey}` };
  const get = (path: string) => http.send({ method: 'GET', path, headers: auth });

  const results: ApiInputOperationResult[] = [];
  let countedVia: ApiInputFuzzResult['countedVia'] = 'reports-summary';
  try {
    const countViaSummary = async (): Promise<number | undefined> => {
      const ex = await get('/v1/reports/summary');
      const total = (ex.json as { tickets?: { total?: unknown } } | undefined)?.tickets?.total;
      return ex.status === 200 && typeof total === 'number' ? total : undefined;
    };
    const countViaList = async (): Promise<number> => {
      let n = 0;
      let cursor: string | undefined;
      for (let page = 0; page < 10_000; page++) {
        const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
        const ex = await get(`/v1/tickets?${q}`);
        const body = ex.json as { data?: unknown[]; next_cursor?: unknown } | undefined;
        if (ex.status !== 200 || !Array.isArray(body?.data))
          throw new Error(`api input fuzz: cannot count tickets (list answered ${ex.status})`);
        n += body.data.length;
        if (typeof body.next_cursor !== 'string' || body.next_cursor === '') return n;
        cursor = body.next_cursor;
      }
      throw new Error('api input fuzz: cannot count tickets (the list does not end)');
    };
    if ((await countViaSummary()) === undefined) countedVia = 'list-walk';
    const count = async () =>
      countedVia === 'reports-summary'
        ? ((await countViaSummary()) ?? (await countViaList()))
        : countViaList();

    const createTarget = async (): Promise<string> => {
      const ex = await http.send({
        method: 'POST',
        path: '/v1/tickets',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(SEED_TICKET),
      });
      const id = (ex.json as { id?: unknown } | undefined)?.id;
      if (ex.status === undefined || ex.status >= 300 || typeof id !== 'string')
        throw new Error(
          `api input fuzz: cannot create the target ticket (${ex.status ?? ex.error}): ${redact(ex.text.slice(0, 200))}`,
        );
      return id;
    };

    for (const [i, operation] of operations.entries()) {
      const spec = OPERATIONS[operation];
      const stats = emptyStats();
      const remaining = deadline - performance.now();
      const base = { operation, schema: spec.schema, stats };
      if (remaining <= 0) {
        results.push({ ...base, status: 'skipped', passed: true, cases: 0, shrinks: 0 });
        continue;
      }
      const target = operation === 'createTicket' ? undefined : await createTarget();
      const path = target
        ? `/v1/tickets/${encodeURIComponent(target)}${operation === 'addMessage' ? '/messages' : ''}`
        : '/v1/tickets';
      const ticketPath = target ? `/v1/tickets/${encodeURIComponent(target)}` : '';
      // What the world looked like after the last case: the next case's "before".
      let known: unknown;
      const observe = async () => (target === undefined ? count() : (await get(ticketPath)).json);
      known = await observe();

      let lastFailure:
        | (NonNullable<ApiInputOperationResult['counterexample']> & CaseProblem)
        | undefined;
      const check = async (c: BodyCase): Promise<boolean> => {
        const before = known;
        const { body, contentType } = encodeBodyCase(c, spec.mediaType);
        const ex = await http.send({
          method: spec.method,
          path,
          headers: { ...auth, ...(contentType === null ? {} : { 'content-type': contentType }) },
          body,
        });
        const after = await observe();
        known = after;
        const statusKey = ex.status === undefined ? 'none' : String(ex.status);
        stats.kinds[c.kind] = (stats.kinds[c.kind] ?? 0) + 1;
        stats.statuses[statusKey] = (stats.statuses[statusKey] ?? 0) + 1;
        const accepted = ex.status !== undefined && ex.status >= 200 && ex.status < 300;
        const sent = sentValue(c);
        const schemaValid =
          (c.contentType === undefined || acceptsMediaType(spec, c.contentType)) &&
          sent !== undefined &&
          validate(spec.schema, sent).length === 0;
        const tally = schemaValid ? stats.schemaValid : stats.schemaInvalid;
        if (accepted) tally.accepted++;
        else tally.rejected++;
        const disagrees = accepted !== schemaValid && ex.status !== undefined && ex.status < 500;
        if (
          disagrees &&
          stats.disagreements.filter((d) => d.schemaValid === schemaValid).length < 5
        )
          stats.disagreements.push({ kind: c.kind, note: c.note, schemaValid, status: statusKey });

        let found = judgeAnswer(ex, spec);
        if (found === undefined) found = sideEffectProblem(operation, sent, ex, before, after);
        else if (!accepted && !isDeepStrictEqual(before, after))
          found = {
            ...found,
            reason: `${found.reason}; and the ${target ? 'ticket changed' : 'ticket count changed'} anyway`,
          };
        if (found === undefined) return true;
        const { reason, broken } = found;
        // Shrinking only moves to failing cases, so the last failure seen is the minimal one.
        lastFailure = {
          reason,
          broken,
          kind: c.kind,
          note: c.note,
          transcript: renderExchange(
            ex,
            [
              `operation: ${operation} (${spec.schema})`,
              `case: ${c.kind}: ${c.note}`,
              `schema-valid body: ${schemaValid ? 'yes' : 'no'}`,
              reason,
            ],
            [apiKey],
          ),
        };
        return false;
      };

      const left = deadline - performance.now();
      const share = Math.max(1000, Math.floor(left / (operations.length - i)));
      const details = await fc.check(
        fc.asyncProperty(
          bodyCaseArb(componentSchema(spec.schema), resolveSpecRef, { bodyLimit }),
          check,
        ),
        {
          seed,
          numRuns,
          interruptAfterTimeLimit: Math.max(1, Math.min(left, share)),
          markInterruptAsFailure: false,
        },
      );
      if (details.failed && !lastFailure)
        throw new Error(
          `api input fuzz: ${operation} could not run: ${redact(fc.defaultReportMessage(details) ?? 'unknown reason')}`,
        );
      const failed = details.failed && lastFailure !== undefined;
      results.push({
        ...base,
        status: failed ? 'failed' : 'passed',
        passed: !failed,
        cases: details.numRuns,
        shrinks: details.numShrinks,
        ...(details.interrupted ? { interrupted: true } : {}),
        ...(failed && lastFailure
          ? {
              reason: lastFailure.reason,
              broken: lastFailure.broken,
              counterexample: {
                kind: lastFailure.kind,
                note: lastFailure.note,
                transcript: lastFailure.transcript,
              },
            }
          : {}),
      });
    }
  } finally {
    await http.close();
  }
  return {
    name: 'api-input-fuzz',
    passed: results.every((r) => r.passed),
    seed,
    durationMs: Math.round(performance.now() - started),
    requests: http.sent,
    countedVia,
    operations: results,
  };
}

/** The "nothing half done" half of the property, for an answer that passed the first half. */
function sideEffectProblem(
  operation: ApiInputOperation,
  sentBody: unknown,
  ex: HttpExchange,
  before: unknown,
  after: unknown,
): CaseProblem | undefined {
  const accepted = ex.status !== undefined && ex.status < 300;
  const halfDone = API_INPUT_RULES.nothingHalfDone;
  const mergePatch = catalogueRule('tickets.merge-patch');
  if (operation === 'createTicket') {
    if (typeof before !== 'number' || typeof after !== 'number') return undefined;
    if (!accepted && after !== before)
      return problem(
        halfDone,
        `rejected with ${ex.status}, yet the ticket count went from ${before} to ${after} (a half-created ticket)`,
      );
    if (accepted && after !== before + 1)
      return problem(
        API_INPUT_RULES.createdOnce,
        `accepted, yet the ticket count went from ${before} to ${after} (expected ${before + 1})`,
      );
    return undefined;
  }
  if (!accepted) {
    return isDeepStrictEqual(before, after)
      ? undefined
      : problem(
          halfDone,
          `rejected with ${ex.status}, yet the ticket changed (GET before and after differ)`,
        );
  }
  const sent = (sentBody ?? {}) as Record<string, unknown>;
  if (operation === 'updateTicket') {
    const now = after as Record<string, unknown> | undefined;
    for (const k of ['subject', 'priority', 'status'] as const) {
      if (k in sent && now?.[k] !== sent[k])
        return problem(
          mergePatch,
          `accepted, but ${k} reads ${JSON.stringify(now?.[k])} instead of the patched ${JSON.stringify(sent[k])}`,
        );
    }
    if (Array.isArray(sent.tags)) {
      const want = new Set(sent.tags);
      const got = new Set(Array.isArray(now?.tags) ? now.tags : []);
      if (want.size !== got.size || [...want].some((t) => !got.has(t)))
        return problem(mergePatch, 'accepted, but the tags read back differ from the patched tags');
    }
    return undefined;
  }
  const m = ex.json as { body?: unknown; author?: unknown };
  if (m.body !== sent.body || m.author !== sent.author)
    return problem(
      catalogueRule('tickets.message-stored'),
      'accepted, but the message echoed is not the one sent (body or author differ)',
    );
  return undefined;
}

/** A few lines for a console: one per operation, and each failure's minimal counterexample. */
export function formatApiInputFuzz(r: ApiInputFuzzResult): string {
  const lines = [
    `api input fuzz: ${r.passed ? 'PASS' : 'FAIL'} — seed ${r.seed}, ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const o of r.operations) {
    const s = o.stats;
    lines.push(
      `  ${o.status.padEnd(7)} ${o.operation} (${o.schema}): ${o.cases} cases${o.interrupted ? ' (time budget reached)' : ''}; schema-valid ${s.schemaValid.accepted} accepted / ${s.schemaValid.rejected} rejected; invalid ${s.schemaInvalid.accepted} accepted / ${s.schemaInvalid.rejected} rejected; statuses ${JSON.stringify(s.statuses)}`,
    );
    if (o.counterexample) {
      lines.push(`    minimal counterexample (replay with FC_SEED=${r.seed}): ${o.reason}`);
      lines.push(...o.counterexample.transcript.split('\n').map((l) => `      ${l}`));
    }
  }
  return lines.join('\n');
}
