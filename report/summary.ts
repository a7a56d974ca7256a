/**
 * summary.json: the verdict of one run, per area, with every failure (Received / Documented or
 * Assumed, and a repro), assumption mismatches, and what did not run and why. Everything the
 * HTML page and the console table show comes from here.
 */
import type { AreaSummary } from '../core/area.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { CompatibilityReport } from '../core/compatibility.ts';
import { type ReadStats, readText } from '../core/http/read-tally.ts';
import { type LeftOnTarget, leftLine } from '../core/target/clean-up.ts';
import type { Replay } from './replay.ts';
import type { RuleCoverage } from './rule-coverage.ts';
import type { RuleMatrix } from './rule-matrix.ts';

export const SUMMARY_SCHEMA = 'harness/summary';
export const SUMMARY_VERSION = 1;

export interface Summary {
  schema: typeof SUMMARY_SCHEMA;
  version: typeof SUMMARY_VERSION;
  runId: string;
  startedAt: string;
  durationMs: number;
  target: { baseUrl: string; embedded: boolean; faults: string[] };
  strict: boolean;
  /**
   * pass (exit 0), fail (exit 1: a documented rule broken), error (exit 2: could not run, or
   * could not look: `unchecked`) — and partial (exit 0): nothing failed, but contract tests were
   * left out to fit `--max-requests`, so the documented rules they check were not checked
   * (`partial` says which).
   */
  verdict: 'pass' | 'partial' | 'fail' | 'error';
  /** Why a run that found nothing is not a clean pass (verdict `partial`). */
  partial?: string;
  exitCode: number;
  /** The preflight found a target no check can run against: the cause and what to fix. */
  unusable?: { cause: string; fix: string };
  /**
   * The run was stopped by a signal ("interrupted by SIGTERM"): verdict `error` whatever it had
   * found — the areas keep what they found before.
   */
  interrupted?: string;
  areas: Record<string, AreaSummary>;
  checks: Array<{ name: string; provenance: string; passed: number; failed: number }>;
  /**
   * The rule × operation matrix (report/rule-matrix.ts): every rule that declares where it
   * applies, on every operation and webhook event of the spec. Absent when no contract test ran.
   */
  matrix?: RuleMatrix;
  /**
   * Per documented rule of the contract suite, what the run looked at: its matrix cells and its
   * tests, checked or not and why (report/rule-coverage.ts). Absent when the run had no contract
   * test (skipped, an unusable target).
   */
  rules?: RuleCoverage[];
  /**
   * Documented rules the target's own answers kept from being checked on most of what they apply
   * to (a 429 where the rule's answer should be, a test its rate limit stopped), with why: the
   * gate could not look, so the run is not a pass — verdict error, exit 2, unless a rule failed.
   */
  unchecked?: Array<{ check: string; rule: string; why: string }>;
  tests: { passed: number; failed: number; skipped: number; total: number };
  /** Objects created on the target (shared staging hygiene): `<kind> <id>`. */
  created?: string[];
  /** What became of them: per kind created, cleaned (closed / deleted), left — and why left. */
  leftOnTarget?: LeftOnTarget;
  /** How much of the target's data the run read: list pages, their records and bytes. */
  reads?: ReadCount;
  /** Requests the run sent to the API, per area and in total, and what the rate limit cost it. */
  requests?: RequestCount;
  /** The run's snapshot against the baseline (its gate, if any, is `areas.compatibility`). */
  compatibility?: CompatibilityReport;
  /** An embedded run: what to start and load so its repros replay (report/replay.ts). */
  replay?: Replay;
}

export interface ReadCount {
  total: ReadStats;
  /** Per area that read any. */
  byArea: Record<string, ReadStats>;
}

export interface RequestCount {
  /** Requests sent, all areas. */
  total: number;
  /** Requests sent per area that ran. */
  byArea: Record<string, number>;
  /** 429 answers the paced areas (contracts, fuzz) received; waited out unless `inconclusive`. */
  rateLimited: number;
  /** 429 answers the load area provoked on purpose, on its plan keys (absent: it did not run). */
  loadRateLimited?: number;
  /**
   * Seconds the paced areas waited for the key's rate limit (pacing and 429s), wall clock: the
   * union of every process's waits, so workers waiting at the same time count once.
   */
  waitedS: number;
  /**
   * The paced processes' waits added up (each Playwright worker and the harness): more than
   * `waitedS` when several waited at the same time.
   */
  waitedByProcessesS?: number;
  /**
   * What the wait is held against: the requests the run sent with its key, and the least time
   * the key's refill needed for them beyond what was available above the reserve at the start.
   */
  refill?: { keySent: number; limitPerMin: number; availableNow: number; neededS: number };
  /** Requests given up because the key's budget was spent (their tests: inconclusive). */
  inconclusive: number;
  /** What the run said it would cost before it started (run/cost-estimate.ts). */
  estimate?: CostEstimate;
  /**
   * The lowest X-RateLimit-Remaining of HARNESS_API_KEY any paced area saw (contracts, fuzz):
   * above the reserve when the run left it for others.
   */
  lowestRemaining?: number;
  /**
   * `--max-requests N`: the limit, the contract tests left out to fit it (each in the contract
   * area's notRun) and what became of the fuzz. A run that left tests out is a partial gate.
   */
  maxRequests?: { limit: number; contractTestsNotRun: number; fuzz: string };
}

/** The cost of a run as printed before it starts: its requests and what the key's budget makes of them. */
export interface CostEstimate {
  /** Requests the selected areas will send (all keys). */
  total: number;
  byArea: Record<string, number>;
  /** Of them, sent with the run's own key (HARNESS_API_KEY): what its budget paces. */
  key: number;
  /** Selected contract tests without a measured cost (counted at the mean). */
  unmeasuredTests: number;
  /** The fuzz size the run uses (fuzz/fuzz-size.ts) and why. */
  fuzz?: string;
  /** The key's budget (absent without rate headers, e.g. the embedded deployment). */
  budget?: {
    limitPerMin: number;
    remaining: number;
    burst: number;
    reserve: number;
    plan?: string;
    /** Requests sendable now: Remaining above the reserve. */
    availableNow: number;
    /** Requests that wait for the refill. */
    refilled: number;
    /** The least time the refill takes, s. */
    waitS: number;
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
 * end (or the target was unusable), or when the target's answers kept documented rules from being
 * checked (`unchecked`: the gate could not look, which is not a pass); else 0.
 */
export function exitCodeOf(
  areas: Record<string, AreaSummary>,
  strict: boolean,
  unchecked: readonly unknown[] = [],
): number {
  for (const a of Object.values(areas)) {
    if (a.documentedFailures.length > 0) return 1;
    if (strict && a.assumptionMismatches.length > 0) return 1;
  }
  if (unchecked.length > 0) return 2;
  return Object.values(areas).some((a) => a.verdict === 'error') ? 2 : 0;
}

/**
 * The verdict of a run that ended with `exitCode`: exit 0 is `partial`, not `pass`, when
 * `partial` says what was left unchecked — a CI step reading summary.json must not take a run
 * that left documented rules out for a clean pass (the exit code stays 0: the user chose the
 * budget, and a --grep run exits 0 too).
 */
export function verdictOf(exitCode: number, partial?: string): Summary['verdict'] {
  if (exitCode === 0 && partial) return 'partial';
  return VERDICT_OF_EXIT[exitCode] ?? 'error';
}

/** Why a run left documented rules unchecked: contract tests left out to fit --max-requests. */
export function partialReason(requests: Summary['requests']): string | undefined {
  const cut = requests?.maxRequests;
  if (!cut?.contractTestsNotRun) return undefined;
  return `${cut.contractTestsNotRun} contract tests not run to fit --max-requests ${cut.limit}`;
}

export const VERDICT_OF_EXIT: Record<number, Summary['verdict']> = {
  0: 'pass',
  1: 'fail',
  2: 'error',
};

/**
 * What the run did to the target beyond its checks, as the console and the page say it: how much
 * of its data it read (per area) and what it left there.
 */
export function targetLines(s: Summary): string[] {
  const lines: string[] = [];
  if (s.reads && s.reads.total.pages > 0) {
    const areas = Object.entries(s.reads.byArea).filter(([, r]) => r.pages > 0);
    lines.push(
      `read from the target: ${readText(s.reads.total)}${areas.length > 1 ? ` (${areas.map(([a, r]) => `${a} ${r.tickets} tickets / ${r.pages} pages`).join(' · ')})` : ''}`,
    );
  }
  if (s.leftOnTarget) lines.push(leftLine(s.leftOnTarget));
  return lines;
}
