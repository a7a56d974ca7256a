/**
 * The detection self-test: the contract suite against the reference deployment with each
 * contract/webhook fault of the catalogue on (one Playwright project per fault, running only the
 * tests tagged with the fault's check). A fault is caught when its named check records a failure
 * in that project: verdicts are only recorded (HARNESS_RECORD_ONLY), not thrown, so a failing
 * check does not cost a worker restart. Limit faults are judged by the load self-tests.
 *
 * Webhook faults get a second column: the same fault on a deployment in dashboard mode (a separate
 * `serve --no-admin` process reached only through HARNESS_* variables; detection-dashboard.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS, ruleOf } from '../server/faults.ts';
import { loadConfig } from '../core/config.ts';
import { envVar } from '../core/variables.ts';
import { readChecks, readPlaywrightTests } from '../contracts/collect.ts';
import type { AreaSummary } from '../core/area.ts';
import { runContracts } from '../contracts/contracts-step.ts';
import { caughtIn, type DashboardCell, runDashboardDetection } from './detection-dashboard.ts';

export interface DetectionRow {
  fault: string;
  check: string;
  provenance: string;
  caught: boolean;
  /** Tests that ran in the fault's project. */
  tests: number;
  /** First failure text naming the check, when caught. */
  evidence?: string;
  /** Webhook faults: caught in dashboard mode too (or why that mode cannot show the fault). */
  dashboard?: DashboardCell;
}

/** The fault projects' suite's time limit (the dashboard column's: CONTRACTS_TIMEOUT_MS). */
export const DETECTION_SUITE_TIMEOUT_MS = 15 * 60_000;

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
  await runContracts(
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
        // Mostly waiting on loopback I/O and webhook retries: more workers than cores pays off.
        HARNESS_WORKERS: envVar('HARNESS_WORKERS') ?? '4',
        PLAYWRIGHT_JSON_OUTPUT_NAME: json,
        FORCE_COLOR: '0',
      },
      timeoutMs: DETECTION_SUITE_TIMEOUT_MS,
      inherit: verbose,
    },
  );
  const tests = readPlaywrightTests(json);
  const results = readChecks(join(outDir, 'detection-run'));
  const dashboard =
    opts.dashboard === false
      ? undefined
      : await runDashboardDetection(join(outDir, 'dashboard'), opts.only);
  const rows = faults.map(
    (f): DetectionRow => ({
      fault: f.name,
      check: f.check,
      provenance: ruleOf(f).provenance,
      ...caughtIn(`fault:${f.name}`, f.check, tests, results),
      ...(dashboard?.has(f.name) ? { dashboard: dashboard.get(f.name)! } : {}),
    }),
  );
  writeFileSync(join(outDir, 'detection-matrix.json'), `${JSON.stringify(rows, null, 2)}\n`);
  writeFileSync(join(outDir, 'detection-matrix.md'), detectionMarkdown(rows));
  return rows;
}

/** Caught wherever it was run: embedded, and in dashboard mode when that mode can show it. */
export function caughtEverywhere(r: DetectionRow): boolean {
  return r.caught && (!r.dashboard || 'notRun' in r.dashboard || r.dashboard.caught);
}

function dashboardColumn(r: DetectionRow): string {
  if (!r.dashboard) return '—';
  if ('notRun' in r.dashboard) return `not run: ${r.dashboard.notRun}`;
  return `${r.dashboard.caught ? 'yes' : '**NO**'} (${r.dashboard.tests} tests)`;
}

export function detectionMarkdown(rows: DetectionRow[]): string {
  const lines = [
    '| fault | check | provenance | tests run | caught | dashboard mode (no admin surface) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.check} | ${r.provenance} | ${r.tests} | ${r.caught ? 'yes' : '**NO**'} | ${dashboardColumn(r)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** A fault not caught by its named check is a failure of the harness itself: documented. */
export function detectionArea(rows: DetectionRow[]): AreaSummary {
  const missed = rows.filter((r) => !caughtEverywhere(r));
  return {
    verdict: missed.length ? 'fail' : 'pass',
    headline: `${rows.length - missed.length} of ${rows.length} contract/webhook faults caught by their named check`,
    documentedFailures: missed.map((r) => ({
      check: `detection.${r.fault}`,
      provenance: 'documented' as const,
      rule: 'Every check of the harness fails against a deployment that breaks its rule.',
      received: r.caught
        ? `${r.check} did not fail with fault ${r.fault} on a dashboard-mode deployment (no admin surface)`
        : `${r.check} did not fail with fault ${r.fault} on (${r.tests} tests ran)`,
      expected: `${r.check} fails`,
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
