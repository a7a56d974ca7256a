/**
 * `harness run` (npm start): the whole job against one target, then the reports.
 *
 *   config (src/config.ts) → preflight → contract suite (Playwright child, contracts/) →
 *   plan-limit load (src/load) → fuzz (fuzz/) → summary.json, snapshot.json,
 *   junit.xml, index.html (src/report) → verdict table → exit 1 iff a documented rule failed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checks } from '../checks/index.ts';
import { compareWithBaseline } from '../compare/baseline.ts';
import { type HarnessConfig, loadConfig } from '../config.ts';
import { redact, redactValue } from '../redact.ts';
import {
  readChecks,
  readCreated,
  readExchanges,
  readPlaywrightTests,
  readProbes,
} from '../report/collect.ts';
import { renderConsole } from '../report/console.ts';
import { renderHtml } from '../report/html.ts';
import { type JunitCase, junitXml } from '../report/junit.ts';
import { type PlanLimitObservation, buildSnapshot } from '../report/snapshot.ts';
import {
  type AreaSummary,
  SUMMARY_SCHEMA,
  SUMMARY_VERSION,
  type Summary,
  checkTable,
  contractsArea,
  exitCodeOf,
} from '../report/summary.ts';
import { runContracts } from './contracts-step.ts';
import { type DetectionRow, caughtEverywhere, runDetectionMatrix } from './detection.ts';
import { runFuzzStep } from './fuzz-step.ts';
import { runLoadStep } from './load-step.ts';
import { type Preflight, preflight } from './preflight.ts';

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
}

const MARKER = '.harness-output';

/** Empties the output directory, refusing to delete one the harness did not create. */
function prepareOut(out: string): void {
  if (existsSync(out)) {
    if (!existsSync(join(out, MARKER)) && !out.endsWith(join('reports', 'latest'))) {
      throw new Error(`refusing to clear ${out}: not a harness output directory (no ${MARKER})`);
    }
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, MARKER), 'written by harness run; emptied at the start of each run\n');
}

function write(out: string, name: string, text: string): string {
  const file = join(out, name);
  writeFileSync(file, redact(text));
  return file;
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
  let tests: ReturnType<typeof readPlaywrightTests> = [];
  if (skip.has('contracts')) {
    areas.contracts = notRun('skipped (--skip contracts)');
  } else {
    log('[1/3] contract suite (Playwright)…');
    const jsonFile = join(out, 'playwright.json');
    const r = await runContracts(
      {
        ...env,
        HARNESS_OUT_DIR: out,
        HARNESS_RUN_ID: runId,
        PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile,
        FORCE_COLOR: '0',
      },
      opts.contractsTimeoutMs,
      opts.grep ? ['--grep', opts.grep] : [],
      opts.verbose !== false,
    );
    tests = readPlaywrightTests(jsonFile);
    areas.contracts = contractsArea(readChecks(out), tests);
    if (r.timedOut) {
      areas.contracts.documentedFailures.push({
        check: 'harness.time-limit',
        provenance: 'documented',
        rule: 'The contract suite finishes within its time limit.',
        received: `killed after ${Math.round(r.wallMs / 1000)} s`,
        expected: `at most ${Math.round((opts.contractsTimeoutMs ?? 600_000) / 1000)} s`,
      });
      areas.contracts.verdict = 'fail';
    }
    if (pre && pre.state !== 'ok') {
      areas.contracts.headline = `target ${pre.state}: ${pre.detail}. ${areas.contracts.headline}`;
      // An unreachable or non-JSON target fails the gate by itself, whatever tests managed to run.
      areas.contracts.documentedFailures.unshift({
        check: 'harness.target-answers',
        provenance: 'documented',
        rule: 'All API traffic is JSON over HTTPS, with standard HTTP status codes.',
        received: `GET /v1/tickets: ${pre.state} (${pre.detail})`,
        expected: 'a JSON answer',
        repro: `curl -i -H 'authorization: Bearer $HARNESS_API_KEY' '${cfg.baseUrl}/v1/tickets?limit=1'`,
      });
      areas.contracts.verdict = 'fail';
    }
    (areas.contracts as AreaSummary & { details?: unknown }).details = {
      wallMs: r.wallMs,
      preflight: pre,
    };
  }

  // --- load -----------------------------------------------------------------------------------
  let limits: PlanLimitObservation[] = [];
  if (skip.has('load')) areas.load = notRun('skipped (--skip load)');
  else {
    log('[2/3] plan-limit load checks…');
    const l = await runLoadStep(cfg, out, log);
    areas.load = l.area;
    limits = l.limits;
  }

  // --- fuzz -----------------------------------------------------------------------------------
  if (skip.has('fuzz')) areas.fuzz = notRun('skipped (--skip fuzz)');
  else {
    log('[3/3] webhook signature fuzzing…');
    areas.fuzz = await runFuzzStep(cfg, log);
  }

  // --- detection self-test (opt-in: --detect) ---------------------------------------------------
  if (opts.detect) {
    if (!embedded)
      areas.detection = notRun(
        'not run: the detection matrix needs the embedded reference deployment',
      );
    else {
      log('[+] detection matrix: the suite against each contract/webhook fault…');
      areas.detection = detectionArea(await runDetectionMatrix(join(out, 'detection')));
    }
  }

  // --- reports --------------------------------------------------------------------------------
  const results = readChecks(out);
  const snapshot = buildSnapshot(
    embedded ? 'embedded reference deployment' : cfg.baseUrl!,
    readExchanges(out),
    readProbes(out),
    limits,
  );
  // Observed changes against the committed baseline (HARNESS_BASELINE, `off` to skip). In a
  // --grep run a status not seen is no evidence of removal: `partial`.
  const compatibility = skip.has('contracts')
    ? undefined
    : compareWithBaseline(redactValue(snapshot), env.HARNESS_BASELINE, {
        partial: Boolean(opts.grep),
      });
  const exitCode = exitCodeOf(areas, cfg.strict);
  const summary: Summary = redactValue({
    schema: SUMMARY_SCHEMA,
    version: SUMMARY_VERSION,
    runId,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    target: { baseUrl: embedded ? 'embedded' : cfg.baseUrl!, embedded, faults: cfg.faults },
    strict: cfg.strict,
    verdict: exitCode === 0 ? 'pass' : 'fail',
    exitCode,
    areas,
    checks: checkTable(results),
    created: readCreated(out).map((c) => `${c.kind} ${c.id}`),
    tests: {
      passed: tests.filter((t) => t.status === 'passed').length,
      failed: tests.filter((t) => t.status === 'failed' || t.status === 'timedOut').length,
      skipped: tests.filter((t) => t.status === 'skipped').length,
      total: tests.length,
    },
    ...(compatibility ? { compatibility } : {}),
  });
  const files = [
    write(out, 'summary.json', `${JSON.stringify(summary, null, 2)}\n`),
    write(out, 'snapshot.json', `${JSON.stringify(redactValue(snapshot), null, 2)}\n`),
    write(out, 'junit.xml', junitXml(junitSuites(summary, results))),
    write(out, 'index.html', renderHtml(summary, snapshot, compatibility)),
  ];
  if (opts.verbose !== false) process.stdout.write(renderConsole(summary, out));
  return { summary, exitCode, files };
}

/** A fault not caught by its named check is a failure of the harness itself: documented. */
function detectionArea(rows: DetectionRow[]): AreaSummary {
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

function notRun(reason: string): AreaSummary {
  return {
    verdict: 'not-run',
    headline: reason,
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [{ name: 'area', reason }],
  };
}

function junitSuites(
  summary: Summary,
  results: ReturnType<typeof readChecks>,
): Record<string, JunitCase[]> {
  const suites: Record<string, JunitCase[]> = {};
  // Contracts: one case per check (aggregated over the suite), failures carry each distinct failure.
  suites.contracts = summary.checks.map((c) => {
    const fails = results.filter((r) => r.check === c.name && !r.passed).map((r) => r.failure!);
    const provenance = checks.has(c.name) ? checks.get(c.name).provenance : c.provenance;
    // Per failure, not per check: a documented check on a missing assumed route is demoted.
    const fatal =
      fails.some((f) => f.provenance === 'documented') || (fails.length > 0 && summary.strict);
    return {
      name: c.name,
      classname: `contracts.${provenance}`,
      failure: fatal
        ? {
            message: `${fails.length} failure(s)`,
            body: fails
              .map((f) => `Received: ${f.received}\nExpected: ${f.expected}\n${f.repro ?? ''}`)
              .join('\n\n'),
          }
        : undefined,
    };
  });
  for (const n of summary.areas.contracts?.notRun ?? [])
    suites.contracts.push({ name: n.name, classname: 'contracts.not-run', skipped: n.reason });
  for (const [area, a] of Object.entries(summary.areas)) {
    if (area === 'contracts') continue;
    const cases: JunitCase[] = [];
    for (const f of a.documentedFailures)
      cases.push({
        name: f.check,
        classname: `${area}.documented`,
        failure: { message: f.received, body: `${f.expected}\n${f.rule}` },
      });
    for (const f of a.assumptionMismatches) {
      cases.push({
        name: f.check,
        classname: `${area}.assumed`,
        failure: summary.strict ? { message: f.received, body: f.expected } : undefined,
      });
    }
    for (const n of a.notRun)
      cases.push({ name: n.name, classname: `${area}.not-run`, skipped: n.reason });
    if (cases.length === 0) cases.push({ name: a.headline, classname: `${area}.summary` });
    suites[area] = cases;
  }
  return suites;
}
