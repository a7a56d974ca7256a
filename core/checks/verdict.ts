/**
 * The verdict of one test: every check it applied, passed or failed, with provenance. At the end
 * of the test a documented failure fails it; an assumed failure fails it only in strict mode and
 * is otherwise reported as "differs from assumption". Results are appended to a JSONL file that
 * `harness run` aggregates into summary.json.
 */
import { uniqueFailures } from '../area.ts';
import { appendJsonl } from '../output-dir.ts';
import { formatFailure, toFailure } from './failure.ts';
import type { HarnessCheck } from './all.ts';
import type { CheckRegistry } from './registry.ts';
import type {
  ArgsOf,
  Assumption,
  Check,
  Exchange,
  ExchangeContext,
  Failure,
  NameOf,
  Violation,
} from './types.ts';

/** The argument list of `check`: none for a check without arguments, else exactly its type. */
type ArgsParam<A> = [A] extends [undefined] ? [args?: undefined] : [args: A];

/** Failures a failing test's error message shows. */
const FATAL_SHOWN = 20;

/** Statuses that say "no such route" rather than "no such resource". */
const ROUTE_MISSING = new Set([404, 405, 501]);

export interface CheckResult {
  test: string;
  /** Playwright project (one per fault in the detection matrix). */
  project?: string;
  check: string;
  provenance: 'documented' | 'assumed';
  passed: boolean;
  failure?: Failure;
  /** Epoch ms the check failed: a failure once the target stopped answering may be the outage. */
  failedAt?: number;
  /** The check failed on an exchange that got no answer at all (contracts-step sets it aside when the target went down). */
  noAnswer?: true;
  /**
   * The column of the rule × operation matrix the judged exchange belongs to: its operation's id,
   * or `webhook:<event>` for a delivery (report/rule-matrix.ts counts the cells from these).
   */
  column?: string;
}

/** The webhook event a judged delivery is about: the check's `event` argument, else its body's. */
function deliveryEvent(ex: Exchange | undefined, args: unknown): string | undefined {
  const named = (args as { event?: unknown } | undefined)?.event;
  if (typeof named === 'string') return named;
  const h = ex?.request.headers ?? {};
  // A delivery carries a signature header; an API request never does.
  const signed = Object.keys(h).some((k) => /^(x-service-signature|service-signature)$/i.test(k));
  if (!ex || ex.operation || !signed) return undefined;
  // The recorded body may be cut short: the event is near the start of every payload.
  return /"event"\s*:\s*"([^"\\]{1,100})"/.exec(ex.request.body ?? '')?.[1];
}

/** The matrix column of an exchange judged by a check (see CheckResult.column). */
export function columnOf(ex: Exchange | undefined, args?: unknown): string | undefined {
  if (ex?.operation) return ex.operation.operationId;
  const event = deliveryEvent(ex, args);
  return event === undefined ? undefined : `webhook:${event}`;
}

/**
 * The assumption that decided a documented check's violation, if one did: the one it leans on
 * (which the check must declare: leaning on another is a harness bug), else the assumed route it
 * was judged on. Every judge of a check's violation asks this — the suite's Verdict and the fuzz.
 */
export function assumptionOf(
  c: Check<any, string>,
  v: Violation,
  ex?: Exchange,
): Assumption | undefined {
  if (c.provenance !== 'documented') return undefined;
  if (v.leansOn && !c.assumptions?.includes(v.leansOn.gap))
    throw new Error(
      `check ${c.name} judged on ${v.leansOn.gap}, which is not among its assumptions (${c.assumptions?.join(', ') || 'none'})`,
    );
  return v.leansOn ?? routeGuessed(ex);
}

/**
 * The assumption a failure on `ex` rests on when its operation's route is only assumed (U5–U10)
 * and the target answered as if it had no such route: the guess was wrong, not the deployment.
 */
function routeGuessed(ex: Exchange | undefined): Assumption | undefined {
  const op = ex?.operation;
  const status = ex?.response?.status;
  if (op?.provenance !== 'assumed' || !status || !ROUTE_MISSING.has(status)) return undefined;
  return {
    gap: op.gap ?? 'assumed',
    why: `the assumed route ${op.method} ${op.template} answered ${status}`,
  };
}

export class Verdict<C extends Check<any, string> = HarnessCheck> {
  readonly results: CheckResult[] = [];

  constructor(
    private readonly registry: CheckRegistry<C>,
    private readonly test: string,
    private readonly sink?: string,
    private readonly project?: string,
    /** What the suite-wide checks are given beside each answer (declared plans of keys). */
    private readonly context: ExchangeContext = {},
    /** The test's exchanges, in order, as it sends them: each failure's repro replays the way there. */
    private readonly history?: readonly Exchange[],
  ) {}

  /**
   * Applies the named check; returns true when it held. The name must be a registered check and
   * `args` that check's argument type (compile-time); unknown names also throw at run time.
   */
  check<N extends NameOf<C>>(
    name: N,
    ex: Exchange | undefined,
    ...[args]: ArgsParam<ArgsOf<C, N>>
  ): boolean {
    return this.apply(this.registry.get(name), ex, args);
  }

  /**
   * Applies a check named at run time — the rule × operation matrix applies every rule that
   * declares a column, with the one argument shape they all read (core/checks/applies-to.ts
   * `MatrixArgs`). Unknown names throw.
   */
  checkNamed(name: string, ex: Exchange | undefined, args: unknown): boolean {
    if (!this.registry.has(name)) throw new Error(`unknown check '${name}'`);
    return this.apply(this.registry.get(name), ex, args);
  }

  private apply(c: Check<any, string>, ex: Exchange | undefined, args: unknown): boolean {
    const name = c.name;
    if (ex && c.judges && !c.judges(ex, args)) return true;
    const pseudo: Exchange = ex ?? {
      request: { method: '-', url: 'about:blank', headers: {} },
      durationMs: 0,
    };
    let v: ReturnType<typeof c.run>;
    try {
      v = c.run(pseudo, args);
    } catch (e) {
      // A check that throws on what a target sent is a harness bug: say so, and on what.
      const r = pseudo.response;
      v = {
        received: `check could not evaluate (a harness bug): ${(e as Error)?.message ?? String(e)} — on ${pseudo.request.method} ${pseudo.request.url}${r ? ` → ${r.status}, ${r.bodyText.length} characters` : ''}`,
        expected: 'an evaluable response',
      };
    }
    // A missing response is never a pass: say what happened instead.
    if (!v && ex && !ex.response && c.kind === 'scenario') {
      v = {
        received: `no response (${ex.error ?? 'unknown transport error'})`,
        expected: 'a response',
      };
    }
    const result: CheckResult = {
      test: this.test,
      project: this.project,
      check: name,
      provenance: c.provenance,
      passed: !v,
    };
    const column = columnOf(ex, args);
    if (column !== undefined) result.column = column;
    if (v) {
      result.failure = toFailure(c, v, ex, this.history);
      result.failedAt = Date.now();
      if (ex && !ex.response) result.noAnswer = true;
      const leans = assumptionOf(c, v, ex);
      if (leans) {
        // A documented rule judged on an assumed fact: the guess was wrong, not the deployment.
        result.provenance = 'assumed';
        result.failure = {
          ...result.failure,
          provenance: 'assumed',
          expected: `${result.failure.expected} — judged on an assumption (${leans.gap}): ${leans.why}`,
        };
      }
    }
    this.results.push(result);
    return !v;
  }

  /** Runs every exchange-kind check on each exchange (the suite-wide checks). */
  checkExchanges(exchanges: Exchange[]): void {
    for (const ex of exchanges) {
      if (!ex.response) continue;
      for (const c of this.registry.ofKind('exchange')) this.apply(c, ex, this.context);
    }
  }

  /**
   * Runs every sequence check on each exchange, given what the process received before it
   * (`history`: may include `exchanges` themselves; each check looks only at earlier answers).
   */
  checkSequences(exchanges: readonly Exchange[], history: readonly Exchange[]): void {
    for (const ex of exchanges) {
      if (!ex.response) continue;
      for (const c of this.registry.ofKind('sequence')) this.apply(c, ex, { earlier: history });
    }
  }

  failures(provenance?: 'documented' | 'assumed'): Failure[] {
    return this.results
      .filter((r) => !r.passed && (!provenance || r.provenance === provenance))
      .map((r) => r.failure!);
  }

  /** Appends results to the JSONL sink (redacted). */
  flush(): void {
    if (this.sink) appendJsonl(this.sink, this.results);
  }

  /**
   * Error text for the failures that fail the test (documented; assumed too when strict): the
   * first FATAL_SHOWN, each bounded — a list walk over a long-lived staging can break one rule on
   * a thousand answers — and how many more the summary has.
   */
  fatalMessage(strict: boolean): string | undefined {
    const fatal = uniqueFailures(
      this.failures().filter((f) => f.provenance === 'documented' || strict),
    );
    if (fatal.length === 0) return undefined;
    const shown = fatal.slice(0, FATAL_SHOWN).map(formatFailure);
    if (fatal.length > FATAL_SHOWN)
      shown.push(`… and ${fatal.length - FATAL_SHOWN} more failures (summary.json has them all)`);
    return shown.join('\n\n');
  }
}
