/**
 * The reports of a run, from the areas' summaries and the raw files the contract workers wrote:
 * summary.json, snapshot.json (observed behaviour, compared with the committed baseline),
 * junit.xml and index.html — every one redacted — and the exit code.
 */
import type { CheckResult } from '../core/checks/verdict.ts';
import { type CreatedRecord, leftOnTarget } from '../core/target/clean-up.ts';
import type { HarnessConfig } from '../core/config.ts';
import { compareWithBaseline } from '../compat/compare/baseline.ts';
import { compatibilityArea } from '../compat/compare/compatibility-area.ts';
import { redactValue } from '../core/redact.ts';
import {
  readChecks,
  readCreated,
  readExchanges,
  readProbes,
  readUnreached,
  type TestRow,
} from '../contracts/collect.ts';
import { ALL_CHECKS } from '../core/checks/all.ts';
import { matrixColumns, matrixRules } from '../core/checks/applies-to.ts';
import { operations, webhookEvents } from '../core/spec/operations.ts';
import { buildRuleMatrix } from '../report/rule-matrix.ts';
import { ruleCoverage, uncheckedRules } from '../report/rule-coverage.ts';
import { esc, renderHtml } from '../report/html.ts';
import { junitXml } from '../core/junit.ts';
import { junitSuites } from '../report/run-junit.ts';
import type { CompatibilityReport } from '../core/compatibility.ts';
import type { BehaviourSnapshot, Exercised, PlanLimitObservation } from '../core/snapshot/types.ts';
import { renderLoadChart } from '../load/chart-svg.ts';
import type { LoadResult } from '../load/lib/result.ts';
import { buildSnapshot } from '../report/snapshot.ts';
import { replayOf } from '../report/replay.ts';
import type { AreaSummary } from '../core/area.ts';
import {
  checkTable,
  exitCodeOf,
  SUMMARY_SCHEMA,
  SUMMARY_VERSION,
  type Summary,
  partialReason,
  verdictOf,
} from '../report/summary.ts';
import { writeRedacted } from '../core/output-dir.ts';

export interface ReportInput {
  out: string;
  runId: string;
  /** Epoch ms the run started. */
  started: number;
  cfg: HarnessConfig;
  areas: Record<string, AreaSummary>;
  tests: TestRow[];
  /** The contract check results (default: as the workers wrote them, `<out>/raw/`). */
  results?: CheckResult[];
  limits: PlanLimitObservation[];
  /** The preflight found the target unusable: cause and what to fix. */
  unusable?: Summary['unusable'];
  /** Requests the run sent to the API, per area (run/request-count.ts). */
  requests?: Summary['requests'];
  /** What the run read of the target's data, per area (run/read-count.ts). */
  reads?: Summary['reads'];
  /** What this process created on the target (the contract workers' are in `<out>/raw/`). */
  created?: CreatedRecord[];
  /** Compare with the baseline (cfg.baseline, `off` to skip); undefined: no comparison. */
  baseline?: { partial: boolean; limits?: boolean };
  /** The run ran only the contract tests matching this (--grep). */
  grep?: string;
  /** The run was interrupted ("interrupted by SIGTERM"): verdict error, exit 2. */
  interrupted?: string;
}

/**
 * What the run exercised, for the snapshot: the contract tests that ran (a skipped one saw
 * nothing), and the load area when it measured plan limits.
 */
export function exercisedBy(r: Pick<ReportInput, 'tests' | 'limits' | 'grep'>): Exercised {
  return {
    areas: ['contracts', ...(r.limits.length ? ['load'] : [])],
    tests: r.tests
      .filter((t) => t.status !== 'skipped' && t.status !== 'interrupted')
      .map((t) => t.title),
    ...(r.grep ? { grep: r.grep } : {}),
  };
}

export function writeReports(r: ReportInput): {
  summary: Summary;
  exitCode: number;
  files: string[];
} {
  const { out, cfg, tests } = r;
  const embedded = !cfg.baseUrl;
  const results = r.results ?? readChecks(out);
  const created = [...readCreated(out), ...(r.created ?? [])];
  const snapshot = buildSnapshot(
    embedded ? 'embedded reference deployment' : cfg.baseUrl!,
    readExchanges(out),
    readProbes(out),
    r.limits,
    exercisedBy(r),
  );
  // Observed changes against the committed baseline, over what both runs exercised.
  const compared = r.baseline
    ? compareWithBaseline(redactValue(snapshot), cfg.baseline, r.baseline)
    : undefined;
  const compatibility =
    compared && cfg.compatFailOn ? { ...compared, failOn: cfg.compatFailOn } : compared;
  const compat = compatibilityArea(compatibility, cfg.compatFailOn);
  const areas = compat ? { ...r.areas, compatibility: compat } : r.areas;
  // Only a run whose contract tests ran has a matrix to show.
  const ran = tests.some((t) => t.status !== 'skipped');
  const matrix = ran
    ? buildRuleMatrix(
        matrixColumns(operations(), webhookEvents()),
        matrixRules(ALL_CHECKS),
        results,
        readUnreached(out),
      )
    : undefined;
  // Rules even when no test ran: every test the target's rate limit stopped is the worst case.
  const rules = tests.length
    ? ruleCoverage(
        ALL_CHECKS.filter((c) => c.provenance === 'documented'),
        matrix,
        tests,
        checkTable(results),
      )
    : undefined;
  const unchecked = uncheckedRules(rules ?? []);
  // An interrupted run did not finish, whatever it found by then: the gate cannot say pass or
  // fail, so it says error (exit 2); the failures found are still in every report.
  const exitCode = r.interrupted ? 2 : exitCodeOf(areas, cfg.strict, unchecked);
  const replay = replayOf({ embedded, faults: cfg.faults });
  const partial = r.interrupted ? undefined : partialReason(r.requests);
  const summary: Summary = redactValue({
    schema: SUMMARY_SCHEMA,
    version: SUMMARY_VERSION,
    runId: r.runId,
    startedAt: new Date(r.started).toISOString(),
    durationMs: Date.now() - r.started,
    target: { baseUrl: embedded ? 'embedded' : cfg.baseUrl!, embedded, faults: cfg.faults },
    strict: cfg.strict,
    verdict: verdictOf(exitCode, partial),
    exitCode,
    ...(partial ? { partial } : {}),
    ...(r.unusable ? { unusable: r.unusable } : {}),
    ...(r.interrupted ? { interrupted: r.interrupted } : {}),
    areas,
    checks: checkTable(results),
    ...(matrix ? { matrix } : {}),
    ...(rules ? { rules } : {}),
    ...(unchecked.length ? { unchecked } : {}),
    created: created.map((c) => `${c.kind} ${c.id}`),
    leftOnTarget: leftOnTarget(created),
    ...(r.requests ? { requests: r.requests } : {}),
    ...(r.reads ? { reads: r.reads } : {}),
    tests: {
      passed: tests.filter((t) => t.status === 'passed').length,
      failed: tests.filter((t) => t.status === 'failed' || t.status === 'timedOut').length,
      skipped: tests.filter((t) => t.status === 'skipped').length,
      total: tests.length,
    },
    ...(compatibility ? { compatibility } : {}),
    ...(replay ? { replay } : {}),
  });
  const files = [
    writeRedacted(out, 'summary.json', `${JSON.stringify(summary, null, 2)}\n`),
    writeRedacted(out, 'snapshot.json', `${JSON.stringify(redactValue(snapshot), null, 2)}\n`),
    writeRedacted(out, 'junit.xml', junitXml(junitSuites(summary, results))),
    writeRedacted(out, 'index.html', runHtml(summary, snapshot, compatibility)),
  ];
  return { summary, exitCode, files };
}

/** index.html of a run: the page with what report/ may not draw itself, the load area's charts. */
export function runHtml(
  summary: Summary,
  snapshot: BehaviourSnapshot,
  compatibility?: CompatibilityReport,
): string {
  const load = summary.areas.load?.details;
  const charts = (Array.isArray(load) ? (load as LoadResult[]) : []).map((r) => {
    try {
      return renderLoadChart(r);
    } catch {
      return `<p><small>chart for ${esc(r.plan)} unavailable</small></p>`;
    }
  });
  return renderHtml(summary, snapshot, { compatibility, charts });
}
