/** The vocabulary of checks: one recorded HTTP exchange, a check, and the Failure it returns. */
import type { Exchange } from '../http/exchange.ts';
import type { Provenance } from '../spec/operations.ts';
import type { AppliesTo } from './applies-to.ts';

export type { Exchange, RecordedRequest, RecordedResponse } from '../http/exchange.ts';

/**
 * The one failure shape of every area: contract checks, load verdicts, fuzz properties, and the
 * leveled findings of diff-spec and compare (compat/findings). `observed`: a behaviour change
 * against a baseline snapshot — no rule of the docs, what a deployment was seen to do before.
 */
export interface Failure {
  check: string;
  provenance: Provenance | 'observed';
  /** The documented sentence or the assumption (with its gap) that was broken. */
  rule: string;
  received: string;
  expected: string;
  /** A curl command that reproduces the exchange, secrets redacted. */
  repro?: string;
}

/** What a check function returns when the rule does not hold. */
export interface Violation {
  received: string;
  expected: string;
  /**
   * The assumption that decided this judgement, when one did: the rule is documented, but a fact
   * the check judged by rests on a gap of the docs (an action's kind read from an assumed field,
   * a status only our reading expects). The finding is then an assumption mismatch naming it,
   * never a gate failure — a correct deployment may read the gap otherwise. The gap must be one
   * of the check's `assumptions`.
   */
  leansOn?: Assumption;
}

/** A gap of docs/assumptions.md a judgement rested on, and how. */
export interface Assumption {
  /** `U9`, or `SLA` for the SLA targets. */
  gap: string;
  why: string;
}

/**
 * One named check. `N` keeps the literal name so the registry can derive the union of check
 * names and, per name, the argument type `Verdict.check` must be given.
 */
export interface Check<A = unknown, N extends string = string> {
  name: N;
  provenance: Provenance;
  rule: string;
  /**
   * `exchange` checks run on every recorded response; `sequence` checks too, given the answers
   * the same process received before (`{ earlier }`); `scenario` checks are called by tests.
   */
  kind: 'exchange' | 'scenario' | 'sequence';
  run(exchange: Exchange, args: A): Violation | undefined;
  /**
   * Whether `exchange` is evidence for this check at all (default: every exchange is): when not,
   * no result is recorded — a check that cannot judge an answer does not count it as passed.
   */
  judges?(exchange: Exchange, args: A): boolean;
  /** Where the rule × operation matrix shows it (core/checks/applies-to.ts). */
  appliesTo?: AppliesTo;
  /**
   * For a documented check: every gap its judgement may rest on (`[]`: documented facts and
   * what the target showed only). A Violation leaning on another gap is a harness bug. The gap of
   * the assumed route a check is applied on (U5–U10) needs no entry: every check may lean on it.
   */
  assumptions?: readonly string[];
}

/**
 * What the suite-wide (`exchange`) checks are given beside the answer: the plan a key was
 * declared under by the user (HARNESS_TEAM_KEYS, …), when it was.
 */
export interface ExchangeContext {
  /** The plan and its requests per minute of the key in an `Authorization` header, if declared. */
  planOf?(authorization: string): DeclaredPlan | undefined;
}

/** A key's plan as the user declared it, and the requests per minute it must show. */
export interface DeclaredPlan {
  plan: string;
  ratePerMin: number;
  /** Where the number comes from: the docs' plan table, or the user's Enterprise numbers. */
  source: string;
}

/** The literal name of a check type (distributes over a union of checks). */
export type NameOf<C> = C extends Check<any, infer N> ? N : never;

/** The argument type of the check named `N` among the checks `C`. */
export type ArgsOf<C, N extends string> = C extends Check<infer A, N> ? A : never;
