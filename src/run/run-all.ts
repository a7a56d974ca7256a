/**
 * `harness run` (npm start): the whole job against one target, then the reports.
 *
 *   config (src/config.ts) → preflight → contract suite (Playwright child, contracts/) →
 *   plan-limit load (src/load) → fuzz (fuzz/) → summary.json, snapshot.json,
 *   junit.xml, index.html (src/report) → verdict table → exit 1 iff a documented rule failed.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { type HarnessConfig, loadConfig } from '../config.ts';
import { redact } from '../redact.ts';
import { renderConsole } from '../report/console.ts';
import type { PlanLimitObservation } from '../report/snapshot.ts';
import type { TestRow } from '../report/collect.ts';
import { type AreaSummary, notRunArea, type Summary } from '../report/summary.ts';
import { runContractsStep } from './contracts-step.ts';
import { detectionArea, runDetectionMatrix } from './detection.ts';
import { runFuzzStep } from './fuzz-step.ts';
import { runLoadStep } from './load-step.ts';
import { prepareOut } from './output-dir.ts';
import { type Preflight, preflight } from './preflight.ts';
import { writeReports } from './write-reports.ts';

export type Area = 'contracts' | 'load' | 'fuzz';

export interface RunOptions {
  outDir?: string;
  skip?: Area[];
  /** Faults for the embedded deployment. */
  faults?: string[];
  strict?: boolean;
  /** Progress output (stderr by default). */
  log?: (line: string) => void;
  /** Contract-suite time limit, ms. Default 10 min. */
  contractsTimeoutMs?: number;
  /** Environment to read the configuration from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Only contract tests whose title or tags match (Playwright --grep). */
  grep?: string;
  /** Also run the detection matrix (fault → check → caught) and report it. Default false. */
  detect?: boolean;
  /** Show the Playwright child's output and the verdict table. Default true. */
  verbose?: boolean;
  /** Print each contract test's check tags on the console (the report files always have them). */
  tags?: boolean;
}

export async function runAll(
  opts: RunOptions = {},
): Promise<{ summary: Summary; exitCode: number; files: string[] }> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${redact(l)}\n`));
  const out = resolve(opts.outDir ?? 'reports/latest');
  const skip = new Set(opts.skip ?? []);
  const started = Date.now();
  const runId = randomBytes(4).toString('hex');
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env) };
  if (opts.faults?.length) env.HARNESS_FAULTS = opts.faults.join(',');
  if (opts.strict) env.HARNESS_STRICT = '1';
  const cfg: HarnessConfig = loadConfig(env);
  prepareOut(out);
  const embedded = !cfg.baseUrl;
  const areas: Record<string, AreaSummary> = {};
  log(
    `harness run ${runId}: target ${embedded ? 'embedded reference deployment' : cfg.baseUrl}${cfg.faults.length ? ` with faults ${cfg.faults.join(', ')}` : ''}`,
  );

  let pre: Preflight | undefined;
  if (!embedded) {
    pre = await preflight(cfg.baseUrl!, cfg.apiKey, Math.min(cfg.timeoutMs, 10_000));
    log(`preflight: ${pre.state} (${pre.detail}, ${pre.ms} ms)`);
  }

  // --- contracts ----------------------------------------------------------------------------
  let tests: TestRow[] = [];
  if (skip.has('contracts')) areas.contracts = notRunArea('skipped (--skip contracts)');
  else {
    log('[1/3] contract suite (Playwright)…');
    const c = await runContractsStep({
      env,
      out,
      runId,
      preflight: pre,
      baseUrl: cfg.baseUrl,
      timeoutMs: opts.contractsTimeoutMs,
      grep: opts.grep,
      verbose: opts.verbose !== false,
      tags: opts.tags ?? false,
    });
    areas.contracts = c.area;
    tests = c.tests;
  }

  // --- load -----------------------------------------------------------------------------------
  let limits: PlanLimitObservation[] = [];
  if (skip.has('load')) areas.load = notRunArea('skipped (--skip load)');
  else {
    log('[2/3] plan-limit load checks…');
    const l = await runLoadStep(cfg, out, log);
    areas.load = l.area;
    limits = l.limits;
  }

  // --- fuzz -----------------------------------------------------------------------------------
  if (skip.has('fuzz')) areas.fuzz = notRunArea('skipped (--skip fuzz)');
  else {
    log('[3/3] webhook signature fuzzing…');
    areas.fuzz = await runFuzzStep(cfg, log);
  }

  // --- detection self-test (opt-in: --detect) ---------------------------------------------------
  if (opts.detect) {
    if (!embedded)
      areas.detection = notRunArea(
        'not run: the detection matrix needs the embedded reference deployment',
      );
    else {
      log('[+] detection matrix: the suite against each contract/webhook fault…');
      areas.detection = detectionArea(await runDetectionMatrix(join(out, 'detection')));
    }
  }

  // --- reports --------------------------------------------------------------------------------
  const { summary, exitCode, files } = writeReports({
    out,
    runId,
    started,
    cfg,
    areas,
    tests,
    limits,
    // A skipped suite observed nothing to compare; a --grep run observed only part of it; a run
    // without the load area measured no plan limits.
    baseline: skip.has('contracts')
      ? undefined
      : { partial: Boolean(opts.grep), limits: !skip.has('load') },
  });
  if (opts.verbose !== false) process.stdout.write(renderConsole(summary, out));
  return { summary, exitCode, files };
}
