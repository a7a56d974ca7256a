/**
 * summary.json: the verdict of one run, per area, with every failure (Received / Documented or
 * Assumed, and a repro), assumption mismatches, and what did not run and why. Everything the
 * HTML page and the console table show comes from here.
 */
import type { Failure } from '../core/checks/types.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { CompatibilityReport } from '../compat/compare/baseline.ts';
import type { TestRow } from '../contracts/collect.ts';

export const SUMMARY_SCHEMA = 'harness/summary';
export const SUMMARY_VERSION = 1;

/** `error`: the area could not run to its end (the target stopped answering, a crash, the time limit). */
export type AreaVerdict = 'pass' | 'fail' | 'warn' | 'not-run' | 'error';

export interface AreaSummary {
  verdict: AreaVerdict;
  /** One line for the table. */
  headline: string;
  documentedFailures: Failure[];
  assumptionMismatches: Failure[];
  notRun: Array<{ name: string; reason: string }>;
  /** Why the area could not run to its end (verdict `error`); what it found before is kept. */
  error?: string;
  /** Area-specific data (load results, fuzz statistics, …). */
  details?: unknown;
}

export interface Summary {
  schema: typeof SUMMARY_SCHEMA;
  version: typeof SUMMARY_VERSION;
  runId: string;
  startedAt: string;
  durationMs: number;
  target: { baseUrl: string; embedded: boolean; faults: string[] };
  strict: boolean;
  /** pass (exit 0), fail (exit 1: a documented rule broken), error (exit 2: could not run). */
  verdict: 'pass' | 'fail' | 'error';
  exitCode: number;
  /** The preflight found a target no check can run against: the cause and what to fix. */
  unusable?: { cause: string; fix: string };
  areas: Record<string, AreaSummary>;
  checks: Array<{ name: string; provenance: string; passed: number; failed: number }>;
  tests: { passed: number; failed: number; skipped: number; total: number };
  /** Objects created on the target (shared staging hygiene). */
  created?: string[];
  /** Requests the run sent to the API, per area and in total, and what the rate limit cost it. */
  requests?: {
    total: number;
    byArea: Record<string, number>;
    rateLimited: number;
    waitedS: number;
    inconclusive: number;
  };
  /** The run's snapshot against the baseline (its gate, if any, is `areas.compatibility`). */
  compatibility?: CompatibilityReport;
}

/** Dedupes failures by check + received text (the same rule broken by many exchanges reads once). */
export function uniqueFailures(fs: Failure[]): Failure[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const k = `${f.check}\u0000${f.received}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function contractsArea(results: CheckResult[], tests: TestRow[]): AreaSummary {
  const failures = results.filter((r) => !r.passed).map((r) => r.failure!);
  const documented = uniqueFailures(failures.filter((f) => f.provenance === 'documented'));
  const assumed = uniqueFailures(failures.filter((f) => f.provenance === 'assumed'));
  const notRun = tests
    .filter((t) => t.status === 'skipped')
    .map((t) => ({ name: t.title, reason: t.reason ?? 'skipped' }));
  // A test that failed without any check failure is either a precondition the target did not
  // meet (a `need(…, 'what was needed')` before the checks, contracts/need.ts, e.g. "the ticket was created" on a
  // deployment without our assumed creation route) — reported, like any guess of ours that did
  // not hold — or a crash or timeout of the harness run itself, which must never pass silently.
  const crashed = tests.filter(
    (t) => (t.status === 'failed' || t.status === 'timedOut') && t.failedOn !== 'checks',
  );
  for (const t of crashed) {
    const first = (t.error ?? '').split('\n')[0] ?? '';
    const precondition = t.status === 'failed' && t.failedOn === 'precondition';
    (precondition ? assumed : documented).push({
      check: precondition ? 'harness.precondition' : 'harness.test-completed',
      provenance: precondition ? 'assumed' : 'documented',
      rule: precondition
        ? 'The target reaches the state a test needs before its checks run (on our assumed routes).'
        : 'Every contract test runs to completion against the target.',
      received: `${t.title}: ${first}`,
      expected: precondition ? 'the precondition holds' : 'the test completes',
    });
  }
  const ran = tests.filter((t) => t.status !== 'skipped').length;
  const verdict: AreaVerdict =
    tests.length === 0
      ? 'not-run'
      : documented.length > 0
        ? 'fail'
        : assumed.length > 0
          ? 'warn'
          : 'pass';
  return {
    verdict,
    headline: `${ran} tests, ${results.length} check evaluations: ${documented.length} documented failures, ${assumed.length} assumption mismatches, ${notRun.length} not run`,
    documentedFailures: documented,
    assumptionMismatches: assumed,
    notRun,
  };
}

export function checkTable(results: CheckResult[]): Summary['checks'] {
  const m = new Map<string, { name: string; provenance: string; passed: number; failed: number }>();
  for (const r of results) {
    const row = m.get(r.check) ?? { name: r.check, provenance: r.provenance, passed: 0, failed: 0 };
    if (r.passed) row.passed++;
    else row.failed++;
    m.set(r.check, row);
  }
  return [...m.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Exit status: 1 iff a documented rule failed (or, strict, any assumption) anywhere — what the
 * areas found stands even when another could not run; else 2 when an area could not run to its
 * end (or the target was unusable); else 0.
 */
export function exitCodeOf(areas: Record<string, AreaSummary>, strict: boolean): number {
  for (const a of Object.values(areas)) {
    if (a.documentedFailures.length > 0) return 1;
    if (strict && a.assumptionMismatches.length > 0) return 1;
  }
  return Object.values(areas).some((a) => a.verdict === 'error') ? 2 : 0;
}

export const VERDICT_OF_EXIT: Record<number, Summary['verdict']> = {
  0: 'pass',
  1: 'fail',
  2: 'error',
};

/**
 * An area that could not run to its end: `reason` says why; `found` (what the area saw before)
 * is kept — its failures still count.
 */
export function errorArea(reason: string, found?: AreaSummary): AreaSummary {
  return {
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [],
    ...found,
    verdict: 'error',
    error: reason,
    headline: found?.headline ? `${reason} (before that: ${found.headline})` : reason,
  };
}

/** An area that did not run at all (skipped, or impossible on this target). */
export function notRunArea(reason: string): AreaSummary {
  return {
    verdict: 'not-run',
    headline: reason,
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [{ name: 'area', reason }],
  };
}
