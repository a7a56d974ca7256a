/**
 * The detection self-test: the whole contract suite against the reference deployment with each
 * contract/webhook fault of the catalogue on (one Playwright project per fault). A fault is
 * caught when its named check records a failure in that project, and caught cleanly when no
 * other check fails there unless the catalogue lists it for the fault (`alsoFails`, with why):
 * one fault, one failure (run/detection-judge.ts). Verdicts are only recorded (recordOnly), not
 * thrown, so a failing check does not cost a worker restart. Limit faults are judged by the load
 * self-tests.
 *
 * Webhook faults get a second column: the same fault on a deployment in dashboard mode (a separate
 * `serve --no-admin` process reached only through HARNESS_* variables; detection-dashboard.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS, ruleOf } from '../server/faults.ts';
import { loadConfig } from '../core/config.ts';
import { readChecks, readPlaywrightTests, readUnreached } from '../contracts/collect.ts';
import type { AreaSummary } from '../core/area.ts';
import { runContracts } from '../contracts/contracts-step.ts';
import { type DashboardCell, runDashboardDetection } from './detection-dashboard.ts';
import { cleanlyCaught, type FaultJudgement, judgeFault } from './detection-judge.ts';
import { DETECTION_MS_PER_FAULT, detectionLanes, detectionTimeoutMs } from './detection-limits.ts';

export interface DetectionRow extends FaultJudgement {
  fault: string;
  check: string;
  provenance: string;
  /** The fault keeps its check from being checked: caught when the run names it unchecked. */
  caughtAs?: 'unchecked';
  /** Webhook faults: caught in dashboard mode too (or why that mode cannot show the fault). */
  dashboard?: DashboardCell;
  /** Set when the matrix's hang guard stopped the run before this fault's suite had ended. */
  stopped?: string;
}

export async function runDetectionMatrix(
  outDir: string,
  verbose = false,
  /** `only`: these faults alone (a partial matrix, e.g. to try new faults). */
  opts: { dashboard?: boolean; only?: readonly string[] } = {},
): Promise<DetectionRow[]> {
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, 'detection-playwright.json');
  const faults = FAULTS.filter(
    (f) => f.area !== 'limits' && (!opts.only || opts.only.includes(f.name)),
  );
  const projects = faults.map((f) => ({
    name: `fault:${f.name}`,
    fault: f.name,
    check: f.check,
    faults: [f.name],
  }));
  const run = await runContracts(
    {
      // The embedded reference deployment with its defaults: no variable of the user applies.
      config: loadConfig({}),
      suite: {
        outDir: join(outDir, 'detection-run'),
        runId: randomBytes(4).toString('hex'),
        recordOnly: true,
        projects,
      },
    },
    {
      env: {
        ...process.env,
        // One worker per fault, this many faults side by side: mostly waiting on loopback I/O
        // and webhook retries, so more lanes than cores pays off.
        HARNESS_WORKERS: String(detectionLanes()),
        PLAYWRIGHT_JSON_OUTPUT_NAME: json,
        FORCE_COLOR: '0',
      },
      timeoutMs: detectionTimeoutMs(projects.length),
      inherit: verbose,
    },
  );
  const tests = readPlaywrightTests(json);
  const results = readChecks(join(outDir, 'detection-run'));
  const unreached = readUnreached(join(outDir, 'detection-run'));
  const limitMs = detectionTimeoutMs(projects.length);
  const stopped = run.timedOut
    ? `stopped at the matrix's time limit (${Math.round(limitMs / 60_000)} min: ${DETECTION_MS_PER_FAULT / 60_000} min per round of ${detectionLanes()} faults side by side) before its suite had ended`
    : undefined;
  const dashboard =
    opts.dashboard === false
      ? undefined
      : await runDashboardDetection(join(outDir, 'dashboard'), opts.only);
  const rows = faults.map((f): DetectionRow => {
    const j = judgeFault(`fault:${f.name}`, f, tests, results, unreached);
    // What a stopped run cut short: a fault with a test that never ran or was interrupted.
    const mine = tests.filter((t) => t.project === `fault:${f.name}`);
    const cut =
      stopped &&
      (mine.length === 0 || mine.some((t) => t.status === 'skipped' || t.status === 'interrupted'));
    return {
      fault: f.name,
      check: f.check,
      provenance: ruleOf(f).provenance,
      ...(f.caughtAs ? { caughtAs: f.caughtAs } : {}),
      ...j,
      ...(dashboard?.has(f.name) ? { dashboard: dashboard.get(f.name)! } : {}),
      ...(cut ? { stopped } : {}),
    };
  });
  writeFileSync(join(outDir, 'detection-matrix.json'), `${JSON.stringify(rows, null, 2)}\n`);
  writeFileSync(join(outDir, 'detection-matrix.md'), detectionMarkdown(rows));
  return rows;
}

/**
 * Caught cleanly wherever it was run: embedded, and in dashboard mode when that mode can show it
 * — by its named check, and by no other check the catalogue does not list for it.
 */
export function caughtEverywhere(r: DetectionRow): boolean {
  return (
    cleanlyCaught(r) && (!r.dashboard || 'notRun' in r.dashboard || cleanlyCaught(r.dashboard))
  );
}

/** What else failed (or a listed check that no longer does), for the matrix's tables. */
export function besides(j: FaultJudgement): string {
  return [
    ...j.collateral.map((c) => `**${c.check}**`),
    ...j.stale.map((c) => `listed but passed: ${c}`),
  ].join(', ');
}

function dashboardColumn(r: DetectionRow): string {
  if (!r.dashboard) return '—';
  if ('notRun' in r.dashboard) return `not run: ${r.dashboard.notRun}`;
  const also = besides(r.dashboard);
  return `${r.dashboard.caught ? 'yes' : '**NO**'} (${r.dashboard.tests} tests)${also ? `; also failed: ${also}` : ''}`;
}

export function detectionMarkdown(rows: DetectionRow[]): string {
  const lines = [
    '| fault | check | provenance | tests run | caught | unlisted other failures | dashboard mode (no admin surface) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.check}${r.caughtAs ? ' (kept unchecked)' : ''} | ${r.provenance} | ${r.tests} | ${r.caught ? 'yes' : r.stopped ? '**NO** (stopped at the time limit)' : '**NO**'} | ${besides(r) || 'none'} | ${dashboardColumn(r)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** Why a row is not caught cleanly, one line per mode that was not. */
function missedBecause(r: DetectionRow): string {
  const why = (j: FaultJudgement, where: string) => {
    if (!j.caught && r.stopped && j === r) return `fault ${r.fault} ${where}: ${r.stopped}`;
    if (!j.caught)
      return r.caughtAs
        ? `${r.check} was not named among the rules the target kept from being checked with fault ${r.fault} ${where} (${j.tests} tests ran)`
        : `${r.check} did not fail with fault ${r.fault} ${where} (${j.tests} tests ran)`;
    const parts = [
      ...j.collateral.map((c) => `${c.check} failed too (${c.received})`),
      ...j.stale.map((c) => `${c} is listed as failing too but passed`),
    ];
    return parts.length ? `with fault ${r.fault} ${where}: ${parts.join('; ')}` : '';
  };
  const dash =
    r.dashboard && !('notRun' in r.dashboard)
      ? why(r.dashboard, 'on a dashboard-mode deployment (no admin surface)')
      : '';
  return [why(r, 'on the embedded deployment'), dash].filter(Boolean).join(' — ');
}

/**
 * A fault not caught by its named check, or caught with another check failing that the catalogue
 * does not list for it, is a failure of the harness itself: documented.
 */
export function detectionArea(rows: DetectionRow[]): AreaSummary {
  const missed = rows.filter((r) => !caughtEverywhere(r));
  return {
    verdict: missed.length ? 'fail' : 'pass',
    headline: `${rows.length - missed.length} of ${rows.length} contract/webhook faults caught by their named check alone`,
    documentedFailures: missed.map((r) => ({
      check: `detection.${r.fault}`,
      provenance: 'documented' as const,
      rule: 'Every check of the harness fails against a deployment that breaks its rule, and only for its own rule.',
      received: missedBecause(r),
      expected: r.caughtAs
        ? `${r.check} named as kept from being checked by the target's answers (the run not a pass), and no check failing that the catalogue does not list for the fault`
        : `${r.check} fails, and no check the catalogue does not list for the fault`,
    })),
    assumptionMismatches: [],
    notRun: rows.flatMap((r) =>
      r.dashboard && 'notRun' in r.dashboard
        ? [{ name: `detection.${r.fault} (dashboard mode)`, reason: r.dashboard.notRun }]
        : [],
    ),
    details: rows,
  };
}
