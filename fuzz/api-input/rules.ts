/**
 * The rule an API-input case broke. Where the rule is one the contract suite already judges (no
 * 5xx, a documented status, the response schema, the problem body, merge patch, stored message),
 * it is that registered check — its name, provenance and wording — so a run report files the
 * failure under the same check either way. The input fuzz's own rules (an answer at all, nothing
 * half done, exactly one ticket per accepted creation) are named here.
 */
import { checks } from '../../core/checks/index.ts';
import type { CheckName } from '../../core/checks/all.ts';
import type { Exchange, Failure, Violation } from '../../core/checks/types.ts';
import { assumptionOf } from '../../core/checks/verdict.ts';
import type { Provenance } from '../../core/spec/operations.ts';

export interface BrokenRule {
  check: string;
  provenance: Provenance;
  rule: string;
}

/**
 * A registered check's rule, as the fuzz reports it; given the violation (and its exchange), as
 * the suite files it: an assumption mismatch where an assumed fact decided it (core/checks/verdict.ts).
 */
export function catalogueRule(name: CheckName, v?: Violation, ex?: Exchange): BrokenRule {
  const c = checks.get(name);
  const leans = v && assumptionOf(c, v, ex);
  return leans
    ? {
        check: c.name,
        provenance: 'assumed',
        rule: `${c.rule} — judged on an assumption (${leans.gap}): ${leans.why}`,
      }
    : { check: c.name, provenance: c.provenance, rule: c.rule };
}

/** The input fuzz's own rules: nothing in the catalogue judges a sequence of bodies. */
export const API_INPUT_RULES = {
  answered: {
    check: 'fuzz.api-input-answered',
    provenance: 'documented',
    rule: 'The API uses standard HTTP status codes: every request gets an HTTP answer.',
  },
  nothingHalfDone: {
    check: 'fuzz.api-input-nothing-half-done',
    provenance: 'documented',
    rule: 'A rejected request (4xx) changes nothing: no half-created ticket, no partial update.',
  },
  createdOnce: {
    check: 'fuzz.api-input-created-once',
    provenance: 'documented',
    rule: 'An accepted creation creates exactly one ticket.',
  },
} as const satisfies Record<string, BrokenRule>;

/** The property as a whole, for a failed result that names no rule (older result files). */
const WHOLE_PROPERTY: BrokenRule = {
  check: 'fuzz.api-input',
  provenance: 'documented',
  rule: 'Any body → 2xx with a valid body or a 4xx problem; never 5xx, never half done.',
};

/** What one failing case reports: the rule, and what was received against it. */
export interface CaseProblem {
  broken: BrokenRule;
  reason: string;
}

export const problem = (broken: BrokenRule, reason: string): CaseProblem => ({ broken, reason });

/** The failures of an input-fuzz operation result, in the run report's one failure shape. */
export function apiInputFailure(
  operation: string,
  broken: BrokenRule,
  reason: string,
  transcript?: string,
): Failure {
  return {
    check: broken.check,
    provenance: broken.provenance,
    rule: `${operation}: ${broken.rule}`,
    received: reason,
    expected: '2xx with a valid body, or a 4xx problem; never 5xx, never half done',
    ...(transcript ? { repro: transcript } : {}),
  };
}

/** An assumed rule some cases broke without failing the property (see api-input.ts). */
export interface CaseWarning {
  broken: BrokenRule;
  reason: string;
  /** Cases that broke it. */
  cases: number;
  /** The shortest body that did. */
  counterexample: { kind: string; note: string; transcript: string };
}

/**
 * Every failed operation of an input-fuzz run, filed under the rule its counterexample broke,
 * then every assumed rule some cases broke (warnings), under its registered check.
 */
export function apiInputFailures(r: {
  operations: ReadonlyArray<{
    operation: string;
    status: string;
    reason?: string;
    broken?: BrokenRule;
    counterexample?: { transcript: string };
    warnings?: readonly CaseWarning[];
  }>;
}): Failure[] {
  const failed = r.operations
    .filter((op) => op.status === 'failed')
    .map((op) =>
      apiInputFailure(
        op.operation,
        op.broken ?? WHOLE_PROPERTY,
        op.reason ?? 'property failed',
        op.counterexample?.transcript,
      ),
    );
  const warned = r.operations.flatMap((op) =>
    (op.warnings ?? []).map((w) =>
      apiInputFailure(
        op.operation,
        w.broken,
        `${w.reason} (${w.cases} case${w.cases === 1 ? '' : 's'})`,
        w.counterexample.transcript,
      ),
    ),
  );
  return [...failed, ...warned];
}
