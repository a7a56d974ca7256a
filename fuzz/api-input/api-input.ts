/**
 * Input fuzz of the API: bodies derived from the spec's request schemas — valid, at the limits,
 * and invalid in one way each (fuzz/arbitraries/api-body-arb.ts) — sent to create a ticket
 * (TicketCreate), update one (TicketUpdate, as a JSON merge patch) and add a message
 * (MessageCreate); and query strings for the list, from its parameters' schemas. Each operation
 * first runs its class sampler — every input class that applies to it (every Unicode plane,
 * boundary lengths, tags lists, number edges: cases.ts), whatever the budget — then random cases;
 * each class is counted from what the cases sent.
 *
 * The property, per case: the answer is a 2xx with a representation valid against the spec
 * (Ticket, Message), or a 4xx with a valid problem body whose `status` is the HTTP status —
 * never a 5xx, never no answer; and nothing is half done: after a rejected create the
 * workspace's ticket count is unchanged (after an accepted one it is one more), after a rejected
 * update or message the ticket is unchanged, an accepted update shows the patched fields. Each
 * rule is a registered check where the contract suite has one (judge.ts), with its provenance: a
 * documented rule broken fails the case (and is shrunk to a minimal counterexample); an assumed
 * one is a warning, counted, with its shortest case, and the fuzz goes on looking.
 *
 * A target that stops answering fails the case that caused it (the target must always answer),
 * and the operations after it are not run, said why — never "could not run".
 *
 * This file runs it: set-up, then per operation a fast-check property over its cases in a share of
 * the time budget. The property is judge.ts's, the counts tally.ts's, the cases cases.ts's, the
 * workspace workspace.ts's.
 */
import fc from 'fast-check';
import { type BodyCase, encodeBodyCase } from '../arbitraries/api-body-arb.ts';
import type { ClassContext } from '../arbitraries/input-classes.ts';
import { fuzzSeed } from '../shared/seed.ts';
import { redact, registerSecret } from '../../core/redact.ts';
import { shownText } from '../../core/shown.ts';
import { createHttp, type Http, RateBudgetExhausted } from '../shared/http.ts';
import { renderExchange } from '../shared/transcript.ts';
import { judgeCase } from './judge.ts';
import { API_INPUT_OPERATIONS, type ApiInputOperation, inputOperation } from './operations.ts';
import { API_INPUT_RULES, type BrokenRule, type CaseProblem, type CaseWarning } from './rules.ts';
import { type ClassCount, classContextOf, classCounts, operationCases } from './cases.ts';
import {
  type ApiInputStats,
  caseClasses,
  emptyStats,
  isSchemaValid,
  sentValue,
  tallyCase,
} from './tally.ts';
import { type CountedVia, openWorkspace, type Workspace } from './workspace.ts';

/** Options of {@link runApiInputFuzz}. */
export interface ApiInputFuzzOptions {
  /** The deployment's API base URL (no trailing `/v1`). */
  baseUrl: string;
  /** A full-access API key. Its workspace gets the tickets the fuzz creates. */
  apiKey: string;
  /**
   * Cases per operation (fast-check `numRuns`, shrinking not counted), the class sampler's
   * included; an operation whose sampler is longer runs the whole sampler. Default 100.
   */
  numRuns?: number;
  /** Seed; default `FC_SEED` or the harness default. */
  seed?: number;
  /** Wall-clock budget of the whole run, shrinking included, in seconds. Default 60. */
  maxSeconds?: number;
  /** Operations to fuzz. Default all four. */
  operations?: readonly ApiInputOperation[];
  /** Body size limit of the API in bytes (U26); the over-limit case exceeds it. Default 1 MiB. */
  bodyLimit?: number;
  /** Per-request timeout. Default 10 000 ms. */
  timeoutMs?: number;
}

export interface ApiInputOperationResult {
  operation: ApiInputOperation;
  /** The request schema the bodies are derived from. */
  schema: string;
  /** `error`: the harness itself failed on a case (a bug, never the target's fault): see `error`. */
  status: 'passed' | 'failed' | 'skipped' | 'error';
  passed: boolean;
  /** Cases run (shrinking excluded). */
  cases: number;
  /** Of the cases, how many the class sampler gave (sent first: each class at least once). */
  sampled: number;
  /**
   * Every input class that applies to the operation and how many cases carried it, read from
   * what was sent; 0 when none did (the run stopped before, or the operation was not run).
   */
  classes: ClassCount[];
  shrinks: number;
  interrupted?: boolean;
  stats: ApiInputStats;
  /** Why the minimal counterexample fails. */
  reason?: string;
  /** The rule it breaks: a registered check where the contract suite judges the same rule. */
  broken?: BrokenRule;
  /** The minimal counterexample: what the body is, and the exchange as an HTTP transcript (key redacted). */
  counterexample?: { kind: string; note: string; transcript: string };
  /** Assumed rules some cases broke: warnings, each with its shortest case. */
  warnings: CaseWarning[];
  /** Why a skipped operation was not run. */
  notRun?: string;
  /**
   * An internal error of the harness on a case, naming the case and the operation (the cases
   * after it still ran and were judged): a harness bug to report, not a verdict on the target.
   */
  error?: string;
}

export interface ApiInputFuzzResult {
  name: 'api-input-fuzz';
  passed: boolean;
  seed: number;
  durationMs: number;
  requests: number;
  /** How the ticket count was read: the summary report, a bounded walk of the list, or not at all. */
  countedVia: CountedVia;
  operations: ApiInputOperationResult[];
  /**
   * Why the run stopped early: the API key's rate budget was spent (rate-budget.ts). The
   * operations not judged are `skipped`; nothing is scored from answers the fuzz did not get.
   */
  inconclusive?: string;
}

/** The first internal error of an operation's cases, and how many cases hit one. */
export interface InternalError {
  first?: string;
  count: number;
}

/** What every operation of one run shares. */
interface Run {
  http: Http;
  baseUrl: string;
  workspace: Workspace;
  auth: Record<string, string>;
  apiKey: string;
  seed: number;
  numRuns: number;
  bodyLimit: number;
  deadline: number;
  /** Set once the target stopped answering: why, and after which operation's case. */
  dead?: string;
}

/** A failing case: the part of an operation's result that describes it. */
type CaseFailure = Required<Pick<ApiInputOperationResult, 'reason' | 'broken' | 'counterexample'>>;

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
  const http = createHttp({ baseUrl: options.baseUrl, timeoutMs });
  const auth = { authorization: `Bearer ${apiKey}` };
  const results: ApiInputOperationResult[] = [];
  let countedVia: ApiInputFuzzResult['countedVia'] = 'reports-summary';
  let inconclusive: string | undefined;
  try {
    const workspace = await openWorkspace(http, auth);
    countedVia = workspace.countedVia;
    const deadline = started + maxSeconds * 1000;
    const baseUrl = options.baseUrl;
    const run: Run = { http, baseUrl, workspace, auth, apiKey, seed, numRuns, bodyLimit, deadline };
    for (const [i, operation] of operations.entries())
      results.push(await fuzzOperation(run, operation, operations.length - i));
  } catch (e) {
    if (!(e instanceof RateBudgetExhausted)) throw e;
    inconclusive = e.reason;
    for (const operation of operations.filter((o) => !results.some((r) => r.operation === o)))
      results.push(notJudged(operation, e.reason));
  } finally {
    await http.close();
  }
  return {
    name: 'api-input-fuzz',
    // Warnings (assumed rules) do not fail the run; a strict run files them as failures.
    passed: results.every((r) => r.passed),
    seed,
    durationMs: Math.round(performance.now() - started),
    requests: http.sent,
    countedVia,
    operations: results,
    ...(inconclusive ? { inconclusive } : {}),
  };
}

/** An operation the run could not judge (the key's rate budget was spent). */
function notJudged(operation: ApiInputOperation, reason: string): ApiInputOperationResult {
  const spec = inputOperation(operation);
  return {
    operation,
    schema: spec.schema,
    status: 'skipped',
    passed: true,
    cases: 0,
    sampled: 0,
    classes: classCounts(classContextOf(spec, 0), {}),
    shrinks: 0,
    stats: emptyStats(),
    warnings: [],
    notRun: reason,
  };
}

/** One operation's property over `numRuns` bodies, in a fair share of the time left. */
async function fuzzOperation(
  run: Run,
  operation: ApiInputOperation,
  operationsLeft: number,
): Promise<ApiInputOperationResult> {
  const spec = inputOperation(operation);
  const stats = emptyStats();
  const warnings = new Map<string, CaseWarning>();
  const cases = operationCases(spec, run.bodyLimit);
  const base = { operation, schema: spec.schema, stats, warnings: [] as CaseWarning[] };
  const skipped = (notRun: string): ApiInputOperationResult => ({
    ...base,
    status: 'skipped',
    passed: true,
    cases: 0,
    sampled: 0,
    classes: classCounts(cases.classes, {}),
    shrinks: 0,
    notRun,
  });
  if (run.dead) return skipped(`not run: ${run.dead}`);
  if (run.deadline - performance.now() <= 0) return skipped('not run: time budget exhausted');
  // An operation on one ticket gets a fresh one to work on.
  const target = spec.spec.template.includes('{') ? await run.workspace.createTarget() : undefined;
  const seen: { failure?: CaseFailure } = {};
  const internal: InternalError = { count: 0 };
  const sink = { stats, seen, warnings, internal };
  const check = await caseCheck(run, operation, target, cases.classes, sink);
  const left = run.deadline - performance.now();
  const share = Math.max(1000, Math.floor(left / operationsLeft));
  // The class sampler first (fast-check runs `examples` before drawing), then random cases up to
  // the budget; the whole sampler even when the budget is smaller. Replays draw the same cases.
  let details = await fc.check(fc.asyncProperty(cases.random, check.property), {
    seed: run.seed,
    numRuns: Math.max(run.numRuns, cases.sampler.length),
    examples: cases.sampler.map((c): [BodyCase] => [c]),
    interruptAfterTimeLimit: Math.max(1, Math.min(left, share)),
    markInterruptAsFailure: false,
  });
  // The count the creations should have left, read once: off, the cases are replayed one by one,
  // each with its own count, so the one that left it off is the counterexample (and is shrunk).
  if (!details.failed && !seen.failure && !run.dead && (await check.countIsOff())) {
    const replay = await caseCheck(run, operation, target, cases.classes, sink, true);
    const replayed = await fc.check(fc.asyncProperty(cases.random, replay.property), {
      seed: run.seed,
      numRuns: check.pending.length,
      examples: check.pending.map((c): [BodyCase] => [c]),
      interruptAfterTimeLimit: Math.max(1, run.deadline - performance.now()),
      markInterruptAsFailure: false,
    });
    // Not reproduced one by one: another client of a shared workspace created or closed tickets
    // meanwhile — the count proves nothing against these cases.
    if (replayed.failed) details = { ...replayed, numRuns: details.numRuns };
  }
  // The budget ran out before any case failed: the operation is not judged (the caller says why).
  if (details.failed && !seen.failure && details.errorInstance instanceof RateBudgetExhausted)
    throw details.errorInstance;
  // The property itself stopped on an error no case recorded (fast-check's, or one outside the
  // judged part of a case): an internal error too, said with fast-check's own words, bounded.
  if (details.failed && !seen.failure && internal.count === 0) {
    internal.count = 1;
    internal.first = `the property stopped: ${shownText(fc.defaultReportMessage(details) ?? 'unknown reason', 2000)}`;
  }
  const failed = details.failed && seen.failure !== undefined;
  const errored = !failed && internal.count > 0;
  return {
    ...base,
    warnings: [...warnings.values()],
    status: failed ? 'failed' : errored ? 'error' : 'passed',
    passed: !failed,
    cases: details.numRuns,
    sampled: Math.min(details.numRuns, cases.sampler.length),
    classes: classCounts(cases.classes, stats.classes),
    shrinks: details.numShrinks,
    ...(details.interrupted ? { interrupted: true } : {}),
    ...(failed ? seen.failure : {}),
    ...(internal.first
      ? {
          error: redact(
            `${operation}: ${internal.first}${internal.count > 1 ? ` (and ${internal.count - 1} more case${internal.count > 2 ? 's' : ''})` : ''}`,
          ),
        }
      : {}),
  };
}

/** Where the cases of one operation report: counts, the failure, warnings, internal errors. */
interface CaseSink {
  stats: ApiInputStats;
  seen: { failure?: CaseFailure };
  warnings: Map<string, CaseWarning>;
  internal: InternalError;
}

/**
 * The property per case of `operation`: send the body (or the query), read the workspace again,
 * tally, judge. A case that breaks a documented rule is recorded in `seen` and fails; shrinking
 * only moves to failing cases, so the last one recorded is the minimal counterexample. Assumed
 * rules broken go to `warnings`, keeping each one's shortest body. Once the target stops
 * answering, every later case holds without being sent, so the case that stopped it stays the
 * counterexample. A list changes nothing: nothing is read around its cases.
 */
async function caseCheck(
  run: Run,
  operation: ApiInputOperation,
  target: string | undefined,
  classes: ClassContext,
  { stats, seen, warnings, internal }: CaseSink,
  perCase = false,
): Promise<CaseCheck> {
  const spec = inputOperation(operation);
  // A creation's count is not read after each case but once after them all (issue 25: a gate
  // run fits a Team key's burst): each answered case is judged against the count it should
  // leave — one more after an accepted create, the same after a rejected one — and the one read
  // (countIsOff) holds them all to it. An unanswered case is read after at once, as every case
  // of the other operations is: a target that stopped answering is told from a dropped request.
  const deferred = !perCase && operation === 'createTicket' && target === undefined;
  const pending: BodyCase[] = [];
  const path = target
    ? `/v1/tickets/${encodeURIComponent(target)}${operation === 'addMessage' ? '/messages' : ''}`
    : spec.spec.template;
  const observe = async () =>
    spec.method === 'GET'
      ? undefined
      : target === undefined
        ? run.workspace.count()
        : run.workspace.ticket(target);
  // What the world looked like after the last case: the next case's "before".
  let known: unknown = await observe();
  /** The body length of each warning's case so far. */
  const shortest = new Map<string, number>();
  const judged = async (c: BodyCase): Promise<boolean> => {
    const before = known;
    const { body, contentType } = c.query
      ? { body: '', contentType: null }
      : encodeBodyCase(c, spec.mediaType);
    const ex = await run.http.send(spec.method, c.query?.raw ? `${path}?${c.query.raw}` : path, {
      headers: { ...run.auth, ...(contentType === null ? {} : { 'content-type': contentType }) },
      ...(c.query ? {} : { raw: body }),
      operation: spec.spec,
    });
    const sent = sentValue(c);
    const schemaValid = isSchemaValid(spec, c, sent);
    const input = { kind: c.kind, note: c.note, schemaValid };
    tallyCase(stats, c, ex, schemaValid);
    // Cases run, not shrinks: once a case failed, what follows is fast-check shrinking it.
    if (!seen.failure)
      for (const name of caseClasses(c, sent, body, classes))
        stats.classes[name] = (stats.classes[name] ?? 0) + 1;
    const counterexampleOf = (p: CaseProblem, extra: string[] = []) => ({
      kind: c.kind,
      note: c.note,
      transcript: renderExchange(
        ex,
        [
          `operation: ${operation} (${spec.schema})`,
          `case: ${c.kind}: ${c.note}`,
          `schema-valid body: ${schemaValid ? 'yes' : 'no'}`,
          p.reason,
          ...extra,
        ],
        [run.apiKey],
      ),
    });
    const status = ex.response?.status;
    if (deferred && status !== undefined && typeof before === 'number') {
      pending.push(c);
      known = before + (status >= 200 && status < 300 ? 1 : 0);
    } else
      try {
        known = await observe();
      } catch (e) {
        // Our own key's budget ran out: not the target's fault (the operation is not judged).
        if (e instanceof RateBudgetExhausted) throw e;
        // The target stopped answering after this input: the input is the counterexample.
        run.dead = `the target stopped answering after a ${operation} case (${(e as Error).message})`;
        const p = judgeCase(operation, ex, sent, before, before, input)[0] ?? {
          broken: API_INPUT_RULES.answered,
          reason: `answered ${ex.status}, then stopped answering`,
        };
        const reason = `${p.reason}; and the target stopped answering after it (${(e as Error).message})`;
        seen.failure = {
          reason,
          broken: p.broken.provenance === 'documented' ? p.broken : API_INPUT_RULES.answered,
          counterexample: counterexampleOf({ ...p, reason }),
        };
        return false;
      }
    const found = judgeCase(operation, ex, sent, before, known, input);
    for (const w of found.filter((p) => p.broken.provenance !== 'documented')) {
      const had = warnings.get(w.broken.check);
      if (had) had.cases++;
      if (had && body.length >= (shortest.get(w.broken.check) ?? 0)) continue;
      shortest.set(w.broken.check, body.length);
      warnings.set(w.broken.check, {
        broken: w.broken,
        reason: w.reason,
        cases: had?.cases ?? 1,
        counterexample: counterexampleOf(w),
      });
    }
    const documented = found.find((p) => p.broken.provenance === 'documented');
    if (!documented) return true;
    seen.failure = {
      reason: documented.reason,
      broken: documented.broken,
      counterexample: counterexampleOf(documented),
    };
    return false;
  };
  const guarded = guardCase(judged, internal);
  return {
    property: async (c) => (run.dead ? true : guarded(c)),
    pending,
    countIsOff: async () => {
      if (pending.length === 0 || typeof known !== 'number') return false;
      const now = await run.workspace.count();
      return typeof now === 'number' && now !== known;
    },
  };
}

/** The property of one operation's cases, and what a deferred count leaves to check after them. */
interface CaseCheck {
  property: (c: BodyCase) => Promise<boolean>;
  /** The cases whose count is not read yet (deferred: createTicket), in the order sent. */
  pending: BodyCase[];
  /** Reads the count once: whether it is not the one the pending cases should have left. */
  countIsOff(): Promise<boolean>;
}

/**
 * A case's property that never stops the fuzz on the harness's own error: the error is counted
 * and the first one kept, naming the case (its kind, what it is, its size) — a bug to report, not
 * a verdict on the target — and the case holds. The key's spent budget still stops the property.
 */
export function guardCase(
  judged: (c: BodyCase) => Promise<boolean>,
  internal: InternalError,
): (c: BodyCase) => Promise<boolean> {
  return async (c) => {
    try {
      return await judged(c);
    } catch (e) {
      if (e instanceof RateBudgetExhausted) throw e;
      internal.count++;
      internal.first ??= `internal error on a ${c.kind} case (${shownText(c.note, 200)}), ${sentSize(c)}: ${shownText(errorText(e), 500)}`;
      return true;
    }
  };
}

const errorText = (e: unknown) =>
  e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(e);

/** The size of what a case sent (its body may be a mebibyte: never shown whole). */
const sentSize = (c: BodyCase) => {
  try {
    const body = c.raw ?? (c.json === undefined ? '' : JSON.stringify(c.json));
    return `a body of ${Buffer.byteLength(body, 'utf8')} bytes`;
  } catch {
    return 'a body JSON cannot write';
  }
};
