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
import { sameJson } from '../../core/json-equal.ts';
import { expectedAccepted } from '../arbitraries/body-cases/packed-sampler.ts';
import { gateOrder } from './gate-reads.ts';
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
  /**
   * The gate-sized fuzz (fuzz/fuzz-size.ts): each operation's packed sampler alone — every input
   * class, several to a case (packed-sampler.ts) — with fewer reads: the update and message
   * cases work on one ticket a creation case left, refused writes are read after once per run
   * of them and replayed one by one only when the ticket changed, accepted ones are judged on
   * their own answer. A failing packed case is split into its one-class cases to name the input.
   */
  packed?: boolean;
  /**
   * Query parameters the target showed its list ignores (the preflight: `limit`, and `cursor` of
   * a list not paged at all; core/config.ts `listIgnoresLimit`): not fuzzed, and the list gets its
   * sampler alone. Each case reads the whole workspace, every ticket earlier runs left included.
   */
  ignoredParams?: readonly string[];
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
  /** The gate-sized fuzz (ApiInputFuzzOptions.packed). */
  packed: boolean;
  /** ApiInputFuzzOptions.ignoredParams. */
  ignoredParams: readonly string[];
  /**
   * Packed: the ticket the update and message cases share (a creation case's, else one made for
   * them), and its GET body as last read when nothing was written to it since.
   */
  shared?: { id: string; known?: unknown };
  /** Something was written since the workspace was opened (its opening count is no "before"). */
  written?: boolean;
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
    const packed = options.packed ?? false;
    const run: Run = {
      ...{ http, baseUrl, workspace, auth, apiKey, seed, numRuns, bodyLimit, deadline },
      packed,
      ignoredParams: options.ignoredParams ?? [],
    };
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
  const params = spec.params?.filter((p) => !run.ignoredParams.includes(p.name));
  const cases = operationCases(params ? { ...spec, params } : spec, run.bodyLimit, run.packed);
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
  // A list that ignores some of its parameters answers each case with the whole workspace: its
  // sampler alone, of the parameters it reads — none left, nothing to send.
  const ignored = run.ignoredParams.filter((n) => spec.params?.some((p) => p.name === n));
  if (ignored.length > 0 && cases.sampler.length === 0)
    return skipped(
      `not run: the list ignores ${ignored.join(' and ')} (the preflight's answer), and each case would read the whole workspace`,
    );
  const alone = run.packed || ignored.length > 0;
  // An operation on one ticket gets a fresh one to work on; packed, the update and message cases
  // share one (a creation case's when one was accepted).
  let target: string | undefined;
  if (spec.spec.template.includes('{')) {
    target = run.packed ? run.shared?.id : undefined;
    if (target === undefined) {
      run.written = true;
      target = await run.workspace.createTarget();
      if (run.packed) run.shared = { id: target };
    }
  }
  const seen: { failure?: CaseFailure } = {};
  const internal: InternalError = { count: 0 };
  const sink = { stats, seen, warnings, internal };
  const check = await caseCheck(run, operation, target, cases.classes, sink);
  const left = run.deadline - performance.now();
  const share = Math.max(1000, Math.floor(left / operationsLeft));
  // The class sampler first (fast-check runs `examples` before drawing), then random cases up to
  // the budget; the whole sampler even when the budget is smaller. Replays draw the same cases.
  // Packed, the sampler alone; on the shared ticket in the order that needs the fewest reads.
  const sampler =
    run.packed && target !== undefined ? gateOrder(cases.sampler, check.fresh) : cases.sampler;
  let details = await fc.check(fc.asyncProperty(cases.random, check.property), {
    seed: run.seed,
    numRuns: alone ? sampler.length : Math.max(run.numRuns, sampler.length),
    examples: sampler.map((c): [BodyCase] => [c]),
    interruptAfterTimeLimit: Math.max(1, Math.min(left, share)),
    markInterruptAsFailure: false,
  });
  // What the one read after the cases could not vouch for — the creations when the count is off,
  // refused writes when the ticket changed — is replayed one by one, each case read before and
  // after, so the one that did it is the counterexample (and is shrunk).
  const doubtful = !details.failed && !seen.failure && !run.dead ? await check.settle() : [];
  if (doubtful.length > 0) {
    const replay = await caseCheck(run, operation, target, cases.classes, sink, true);
    const replayed = await fc.check(fc.asyncProperty(cases.random, replay.property), {
      seed: run.seed,
      numRuns: doubtful.length,
      examples: doubtful.map((c): [BodyCase] => [c]),
      interruptAfterTimeLimit: Math.max(1, run.deadline - performance.now()),
      markInterruptAsFailure: false,
    });
    // Not reproduced one by one: another client of a shared workspace created or closed tickets
    // meanwhile — the count proves nothing against these cases.
    if (replayed.failed) details = { ...replayed, numRuns: details.numRuns };
    if (run.shared) run.shared.known = undefined;
  }
  // A packed case failed: its one-class cases one by one, so the first that fails alone names
  // the input (the packed case stays the counterexample when none does: they broke it together).
  const culprit = details.failed && seen.failure ? details.counterexample?.[0] : undefined;
  if (culprit?.parts && !run.dead)
    await splitPacked(run, operation, target, cases.classes, sink, culprit.parts);
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

/**
 * The one-class cases of a failed packed case, one by one, each read before and after as in the
 * full fuzz, until one fails alone: its failure replaces the packed case's. Not counted as cases
 * (the failure already stopped the counts), as a shrink is not.
 */
async function splitPacked(
  run: Run,
  operation: ApiInputOperation,
  target: string | undefined,
  classes: ClassContext,
  sink: CaseSink,
  parts: readonly BodyCase[],
): Promise<void> {
  try {
    const split = await caseCheck(run, operation, target, classes, sink, true);
    for (const part of parts) if (!(await split.property(part)) || run.dead) return;
  } catch (e) {
    // The key's budget ran out while splitting: the packed case stays the counterexample.
    if (!(e instanceof RateBudgetExhausted)) throw e;
  } finally {
    if (run.shared) run.shared.known = undefined;
  }
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
 *
 * `perCase`: every case read before and after (the full fuzz's update and message cases, and
 * every replay). Otherwise the reads are deferred (`settle` says what they could not vouch for):
 * - a creation's count is not read after each case but once after them all (issue 25: a gate run
 *   fits a Team key's burst): each answered case is judged against the count it should leave —
 *   one more after an accepted create, the same after a rejected one — and the one read holds
 *   them all to it;
 * - packed, a refused write on the shared ticket is held to the ticket as last read, once for the
 *   whole run of refused writes (read before the next accepted one, or after the last); a write
 *   accepted in between leaves the refused ones before it unvouched for (replayed). An accepted
 *   update is judged on its own answer (the merge patch rule is the PATCH answer's, as the
 *   contract suite judges it), an accepted message too (it always was): nothing is read after it,
 *   and the ticket is read again only before the next refused write needs it.
 * An unanswered case is read after at once either way: a target that stopped answering is told
 * from a dropped request.
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
  const counted = operation === 'createTicket' && target === undefined;
  const deferredCount = !perCase && counted;
  const deferredTicket = !perCase && run.packed && target !== undefined && spec.method !== 'GET';
  /** Cases the deferred read has yet to vouch for, and those it no longer can. */
  const pending: BodyCase[] = [];
  const doubtful: BodyCase[] = [];
  const path = target
    ? `/v1/tickets/${encodeURIComponent(target)}${operation === 'addMessage' ? '/messages' : ''}`
    : spec.spec.template;
  const observe = async () =>
    spec.method === 'GET'
      ? undefined
      : target === undefined
        ? run.workspace.count()
        : run.workspace.ticket(target);
  // What the world looked like after the last case: the next case's "before". Packed, the count
  // the workspace was opened with (nothing written since), and the shared ticket as last read —
  // or not read yet (STALE: read when a refused write first needs it).
  let known: unknown;
  if (deferredTicket) {
    known = run.shared?.known ?? STALE;
    // Taken: written from here on, it is this operation's to say again (settle).
    if (run.shared) run.shared.known = undefined;
  } else if (deferredCount && run.packed && run.workspace.opened !== undefined && !run.written)
    known = run.workspace.opened;
  else known = await observe();
  const fresh = known !== STALE;
  /** Reads the shared ticket: off from what the pending refused writes were held to, they are doubtful. */
  const vouch = async () => {
    const now = await observe();
    if (!sameJson(now, known)) doubtful.push(...pending);
    pending.length = 0;
    known = now;
  };
  /** The body length of each warning's case so far. */
  const shortest = new Map<string, number>();
  const judged = async (c: BodyCase): Promise<boolean> => {
    if (deferredTicket) {
      if (expectedAccepted(c) && pending.length > 0) await vouch();
      else if (!expectedAccepted(c) && known === STALE) known = await observe();
    }
    const before = known;
    const { body, contentType } = c.query
      ? { body: '', contentType: null }
      : encodeBodyCase(c, spec.mediaType);
    if (spec.method !== 'GET') run.written = true;
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
    if (!seen.failure && !perCase)
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
    const accepted = status !== undefined && status >= 200 && status < 300;
    // Packed: the first ticket a schema-valid creation left is the one updates and messages share.
    if (run.packed && counted && accepted && schemaValid && !run.shared) {
      const id = (ex.response?.json as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && id !== '') run.shared = { id };
    }
    let after: unknown;
    if (deferredCount && status !== undefined && typeof before === 'number') {
      pending.push(c);
      known = before + (accepted ? 1 : 0);
      after = known;
    } else if (deferredTicket && status !== undefined) {
      if (accepted) {
        // Written: what the refused writes before it were held to can no longer be read.
        doubtful.push(...pending);
        pending.length = 0;
        known = STALE;
        after = operation === 'updateTicket' ? ex.response?.json : undefined;
      } else if (before === STALE) {
        doubtful.push(c);
        after = undefined;
      } else {
        pending.push(c);
        after = before;
      }
    } else
      try {
        known = await observe();
        after = known;
      } catch (e) {
        // Our own key's budget ran out: not the target's fault (the operation is not judged).
        if (e instanceof RateBudgetExhausted) throw e;
        // The target stopped answering after this input: the input is the counterexample.
        run.dead = `the target stopped answering after a ${operation} case (${(e as Error).message})`;
        const was = before === STALE ? undefined : before;
        const p = judgeCase(operation, ex, sent, was, was, input)[0] ?? {
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
    const found = judgeCase(
      operation,
      ex,
      sent,
      before === STALE ? undefined : before,
      after,
      input,
    );
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
    fresh,
    settle: async () => {
      if (deferredCount) {
        if (pending.length === 0 || typeof known !== 'number') return [];
        const now = await run.workspace.count();
        return typeof now === 'number' && now !== known ? [...pending] : [];
      }
      if (deferredTicket) {
        if (pending.length > 0) await vouch();
        if (run.shared) run.shared.known = doubtful.length === 0 ? known : undefined;
        if (run.shared && known === STALE) run.shared.known = undefined;
        return [...doubtful];
      }
      return [];
    },
  };
}

/** The shared ticket was written since it was last read. */
const STALE = Symbol('stale');

/** The property of one operation's cases, and what its deferred reads leave to check after them. */
interface CaseCheck {
  property: (c: BodyCase) => Promise<boolean>;
  /** The state the first case is held to is known without a read (packed order: gateOrder). */
  fresh: boolean;
  /**
   * The deferred read after the cases (the creation count, or the shared ticket after its last
   * refused writes): the cases it could not vouch for, in the order sent, to replay one by one.
   */
  settle(): Promise<BodyCase[]>;
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
