/**
 * The reports of a run, from the areas' summaries and the raw files the contract workers wrote:
 * summary.json, snapshot.json (observed behaviour, compared with the committed baseline),
 * junit.xml and index.html — every one redacted — and the exit code.
 */
import type { CheckResult } from '../core/checks/verdict.ts';
import type { HarnessConfig } from '../core/config.ts';
import { compareWithBaseline } from '../compat/compare/baseline.ts';
import { compatibilityArea } from '../compat/compare/compatibility-area.ts';
import { redactValue } from '../core/redact.ts';
import {
  readChecks,
  readCreated,
  readExchanges,
  readProbes,
  type TestRow,
} from '../contracts/collect.ts';
import { esc, renderHtml } from '../report/html.ts';
import { junitXml } from '../core/junit.ts';
import { junitSuites } from '../report/run-junit.ts';
import type { CompatibilityReport } from '../core/compatibility.ts';
import type { BehaviourSnapshot, PlanLimitObservation } from '../core/snapshot/types.ts';
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
  VERDICT_OF_EXIT,
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
  /** Compare with the baseline (cfg.baseline, `off` to skip); undefined: no comparison. */
  baseline?: { partial: boolean; limits?: boolean };
}

export function writeReports(r: ReportInput): {
  summary: Summary;
  exitCode: number;
  files: string[];
} {
  const { out, cfg, tests } = r;
  const embedded = !cfg.baseUrl;
  const results = r.results ?? readChecks(out);
  const snapshot = buildSnapshot(
    embedded ? 'embedded reference deployment' : cfg.baseUrl!,
    readExchanges(out),
    readProbes(out),
    r.limits,
  );
  // Observed changes against the committed baseline. In a --grep run a status not seen is no
  // evidence of removal: `partial`.
  const compared = r.baseline
    ? compareWithBaseline(redactValue(snapshot), cfg.baseline, r.baseline)
    : undefined;
  const compatibility =
    compared && cfg.compatFailOn ? { ...compared, failOn: cfg.compatFailOn } : compared;
  const compat = compatibilityArea(compatibility, cfg.compatFailOn);
  const areas = compat ? { ...r.areas, compatibility: compat } : r.areas;
  const exitCode = exitCodeOf(areas, cfg.strict);
  const replay = replayOf({ embedded, faults: cfg.faults });
  const summary: Summary = redactValue({
    schema: SUMMARY_SCHEMA,
    version: SUMMARY_VERSION,
    runId: r.runId,
    startedAt: new Date(r.started).toISOString(),
    durationMs: Date.now() - r.started,
    target: { baseUrl: embedded ? 'embedded' : cfg.baseUrl!, embedded, faults: cfg.faults },
    strict: cfg.strict,
    verdict: VERDICT_OF_EXIT[exitCode] ?? 'error',
    exitCode,
    ...(r.unusable ? { unusable: r.unusable } : {}),
    areas,
    checks: checkTable(results),
    created: readCreated(out).map((c) => `${c.kind} ${c.id}`),
    ...(r.requests ? { requests: r.requests } : {}),
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
