/**
 * `harness run` (npm start): the whole job against one target, then the reports — always.
 *
 *   config (core/config.ts) → preflight (an unusable target stops here: exit 2) → contract suite
 *   (Playwright child, contracts/) → plan-limit load (load) → fuzz (fuzz/) → summary.json,
 *   snapshot.json, junit.xml, index.html (report) → verdict table.
 *
 * Exit 1 iff a documented rule failed anywhere; else 2 when an area could not run to its end
 * (it threw, the target stopped answering, the run's time limit) or the target was unusable;
 * else 0. An area that errors never takes the others' findings with it (area-guard.ts).
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { processRateStats, type RateStats } from '../core/http/rate-budget.ts';
import { type HarnessConfig, loadConfig } from '../core/config.ts';
import { redact } from '../core/redact.ts';
import { renderConsole } from '../report/console.ts';
import { type AreaSummary, errorArea, notRunArea } from '../core/area.ts';
import type { Summary } from '../report/summary.ts';
import { applyEnv, insecureTlsEnv } from '../core/target/tls-trust.ts';
import { guardArea, type RunClock, runClock, stopReason, unlessInterrupted } from './area-guard.ts';
import { defaultTimeLimit } from './default-time-limit.ts';
import { runContractsStep } from '../contracts/contracts-step.ts';
import { detectionArea, runDetectionMatrix } from './detection.ts';
import { createReceiver } from '../examples/receiver/receiver.ts';
import { runFuzzStep } from '../fuzz/fuzz-step.ts';
import { runLoadStep } from '../load/load-step.ts';
import { startService } from '../server/start.ts';
import { prepareOut } from '../core/output-dir.ts';
import { type Preflight, preflight } from './preflight.ts';
import {
  contractKeySent,
  contractLowestRemaining,
  contractRequestStats,
  contractWaits,
  type LoadCount,
  loadCount,
  requestCount,
  requestLine,
  statsSince,
} from './request-count.ts';
import { readReads } from '../contracts/collect.ts';
import { ledgerMark } from '../core/http/created-ledger.ts';
import { addReadStats, processReadStats, type ReadStats } from '../core/http/read-tally.ts';
import { cleanUpSince, uncleanedSince } from './clean-up-run.ts';
import { sizeText } from '../core/http/read-tally.ts';
import { readCount } from './read-count.ts';
import { type Unusable, unusableTarget, unusableText } from './unusable-target.ts';
import { type ReportInput, writeReports } from './write-reports.ts';
import { type Area, areasNotRun } from './area-selection.ts';
import { budgetTime, keyBudget } from '../core/http/key-budget.ts';
import { configureRateBudgets, processWaits, rateBudget } from '../core/http/rate-budget.ts';
import { fuzzSize } from '../fuzz/fuzz-size.ts';
import {
  costLines,
  estimateCost,
  type ListedTest,
  listContractTests,
  pacedByKey,
  readCosts,
} from './cost-estimate.ts';
import { envVar } from '../core/variables.ts';
import { fitToMaxRequests } from './max-requests.ts';

export type { Area } from './area-selection.ts';

export interface RunOptions {
  outDir?: string;
  skip?: Area[];
  /** Only these areas (`--area`); default all, with `grep` the contract suite alone. */
  areas?: Area[];
  /** Faults for the embedded deployment. */
  faults?: string[];
  strict?: boolean;
  /** Progress output (stderr by default). */
  log?: (line: string) => void;
  /** Contract-suite time limit, ms. Default 10 min. */
  contractsTimeoutMs?: number;
  /**
   * Time limit of the whole run, s (default HARNESS_RUN_MAX_SECONDS, else the default of
   * run/default-time-limit.ts).
   */
  maxSeconds?: number;
  /** Aborted when the run is interrupted (run/interrupt.ts); its reason names the signal. */
  signal?: AbortSignal;
  /** Called once when the run must stop early (interrupt or time limit): end the children then. */
  onStop?: (reason: string) => void;
  /** Environment to read the configuration from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The target (`--url`), over the environment's HARNESS_BASE_URL. */
  baseUrl?: string;
  /** `--reserve N`: requests of the key's Remaining left for others (over HARNESS_RESERVE). */
  reserve?: number;
  /** `--fuzz-cases N`: API input cases per operation (over HARNESS_FUZZ_CASES). */
  fuzzCases?: number;
  /** `--max-requests N`: the run fits N requests (over HARNESS_MAX_REQUESTS; run/max-requests.ts). */
  maxRequests?: number;
  /** Only contract tests whose title or tags match (Playwright --grep). */
  grep?: string;
  /** Also run the detection matrix (fault → check → caught) and report it. Default false. */
  detect?: boolean;
  /** Show the Playwright child's output and the verdict table. Default true. */
  verbose?: boolean;
  /** Print each contract test's check tags on the console (the report files always have them). */
  tags?: boolean;
  /**
   * `--time-scale N`: the target's clock runs N× real time (a reference deployment served with
   * `--time-scale N`), so the load area's schedule is N× shorter. Default 1.
   */
  timeScale?: number;
}

export interface RunResult {
  summary: Summary;
  exitCode: number;
  files: string[];
  /** The run's time limit or an interrupt cut an area short: its work may still be running in this process. */
  outOfTime: boolean;
  /** Set when the run was interrupted: by what. */
  interrupted?: string;
}

export async function runAll(opts: RunOptions = {}): Promise<RunResult> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${redact(l)}\n`));
  const out = resolve(opts.outDir ?? 'reports/latest');
  const started = Date.now();
  const runId = randomBytes(4).toString('hex');
  // The configuration, read once: the steps get it, the contract suite's processes its file.
  const cfg: HarnessConfig = loadConfig(opts.env ?? process.env, {
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.faults?.length ? { faults: opts.faults } : {}),
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.reserve !== undefined ? { reserve: opts.reserve } : {}),
    ...(opts.fuzzCases !== undefined ? { fuzzCases: opts.fuzzCases } : {}),
    ...(opts.maxRequests !== undefined ? { maxRequests: opts.maxRequests } : {}),
  });
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env) };
  const skipped = new Set(opts.skip ?? []);
  const clock = runClock(
    opts.maxSeconds ??
      cfg.runMaxSeconds ??
      defaultTimeLimit({
        areas: (['contracts', 'load', 'fuzz'] as const).filter((a) => !skipped.has(a)),
        detect: Boolean(opts.detect) && !cfg.baseUrl,
        contractsTimeoutMs: opts.contractsTimeoutMs,
      }),
    started,
    { interrupt: opts.signal, onStop: opts.onStop },
  );
  prepareOut(out);
  log(
    `harness run ${runId}: target ${cfg.baseUrl ?? 'embedded reference deployment'}${cfg.faults.length ? ` with faults ${cfg.faults.join(', ')}` : ''}`,
  );
  log(`  ${clock.limitName}`);
  // HARNESS_ALLOW_INSECURE on https: for this run's requests and its children, then put back.
  const insecure = insecureTlsEnv(cfg);
  Object.assign(env, insecure);
  const restoreEnv = applyEnv(insecure);
  try {
    const r = await runAreas(opts, { cfg, env, out, runId, clock, log });
    const { summary, exitCode, files } = writeReports({
      out,
      runId,
      started,
      cfg,
      areas: r.areas,
      tests: r.tests,
      results: r.results,
      limits: r.limits,
      unusable: r.unusable,
      requests: r.requests,
      reads: r.reads,
      created: r.created,
      ...(opts.grep ? { grep: opts.grep } : {}),
      interrupted: opts.signal?.aborted ? String(opts.signal.reason) : undefined,
      // A skipped, unfinished or unusable suite observed too little to compare. What a --grep run
      // or a run without load did not exercise, the snapshot says (compat/compare/exercised.ts).
      baseline: r.complete
        ? { partial: Boolean(opts.grep), limits: r.limits.length > 0 }
        : undefined,
    });
    if (opts.verbose !== false) process.stdout.write(renderConsole(summary, out));
    return {
      summary,
      exitCode,
      files,
      outOfTime: r.outOfTime,
      ...(summary.interrupted ? { interrupted: summary.interrupted } : {}),
    };
  } finally {
    clock.dispose();
    restoreEnv();
  }
}

interface RunContext {
  cfg: HarnessConfig;
  env: NodeJS.ProcessEnv;
  out: string;
  runId: string;
  clock: RunClock;
  log: (line: string) => void;
}

/** What the areas found, as the reports take it. */
interface AreasRun
  extends Pick<
    ReportInput,
    'areas' | 'tests' | 'results' | 'limits' | 'unusable' | 'requests' | 'reads' | 'created'
  > {
  /** The contract suite ran to its end (the baseline comparison makes sense). */
  complete: boolean;
  outOfTime: boolean;
}

/** Preflight, then each area in turn; an area that cannot run is marked, never thrown. */
async function runAreas(opts: RunOptions, ctx: RunContext): Promise<AreasRun> {
  const { cfg, log, clock } = ctx;
  // Areas not selected (--skip, --area, --grep), each with the reason the report lists.
  const skip = areasNotRun(opts);
  const run: AreasRun = { areas: {}, tests: [], limits: [], complete: false, outOfTime: false };
  const { areas } = run;
  const planned: Array<Area | 'detection'> = ['contracts', 'load', 'fuzz'];
  if (opts.detect) planned.push('detection');

  // Whether the target can be tested at all (a real one), and still can between areas.
  let down: string | undefined;
  let last: Preflight | undefined;
  const probe = async (): Promise<Unusable | undefined> => {
    if (!cfg.baseUrl) return undefined;
    last = await preflight(cfg.baseUrl, cfg.apiKey, Math.min(cfg.timeoutMs, 10_000));
    log(`preflight: ${last.state}: ${last.detail} (${last.ms} ms)`);
    return unusableTarget(last, cfg.baseUrl);
  };
  /** Probes again: a target that stopped answering is `down` from then on. */
  const wentDown = async (): Promise<boolean> => {
    const gone = await probe();
    if (gone) down = `the target stopped answering: ${gone.cause}`;
    return gone !== undefined;
  };
  const unusable = await unlessInterrupted(clock, probe());
  if (unusable) {
    const text = unusableText(unusable);
    log(text);
    areas.preflight = {
      ...errorArea(text),
      headline: `target unusable: ${unusable.cause}`,
      details: { preflight: last },
    };
    for (const a of planned)
      areas[a] = notRunArea(
        (a !== 'detection' && skip.get(a)) || 'not run: the target is unusable (preflight)',
      );
    return { ...run, unusable };
  }

  // The cost, said first: the key's budget from the preflight's headers, the reserve the run
  // leaves for others (pacing keeps it, in this process and in every contract worker), the fuzz
  // sized to the budget, and the requests the selected areas will send.
  const budget = keyBudget(last?.rate, cfg);
  const plan =
    budget?.plan ??
    (['team', 'growth', 'enterprise'] as const).find(
      (p) => cfg.apiKey !== undefined && cfg.planKeys[p].includes(cfg.apiKey),
    );
  if (budget) cfg.reserve = budget.reserve;
  // More than the one ticket asked for: the list ignores `limit`, and every read of it is the
  // whole workspace (the contract workers read it in the resolved configuration).
  if (last?.listed && last.listed.rows > 1) {
    cfg.listIgnoresLimit = last.listed;
    log(
      `  the ticket list ignores limit: limit=1 answered ${last.listed.rows} tickets (${sizeText(last.listed.bytes)})${last.listed.paged ? '' : ' and no next page'}; it is read only where a judgement needs a new answer`,
    );
  }
  // This process's budgets; each Playwright worker sets its own (contracts/fixtures.ts).
  configureRateBudgets({
    keyReserve: cfg.reserve ?? 0,
    reserveFor: cfg.apiKey ? `Bearer ${cfg.apiKey}` : undefined,
  });
  let size = fuzzSize(cfg, plan);
  const delivery =
    !cfg.baseUrl ||
    Boolean(cfg.adminToken) ||
    (Boolean(cfg.webhookUrl) && cfg.webhookEndpoints.length > 0 && !cfg.readOnly);
  // Subscribed through an admin surface: its requests count among those sent, not the key's.
  const deliveryAdmin = !cfg.baseUrl || Boolean(cfg.adminToken);
  // The load area provokes the plans' limits with thousands of requests on purpose: it has no
  // smaller size, so a run held to a request count leaves it out (and says so).
  if (cfg.maxRequests !== undefined && !skip.has('load'))
    skip.set(
      'load',
      `not run: --max-requests ${cfg.maxRequests} (the load area sends thousands of requests to measure the plans' limits; it has no smaller size)`,
    );
  let running = new Set((['contracts', 'load', 'fuzz'] as const).filter((a) => !skip.has(a)));
  const costs = readCosts();
  let listed = running.has('contracts') ? await listContractTests(ctx.env, opts.grep) : undefined;
  // One contract worker when the key's budget paces the run (a Team key; a budget the run's
  // requests exceed): its requests go out at the refill rate however many workers send them, and
  // each worker makes its own shared fixtures (issue 25). The user's HARNESS_WORKERS stands.
  let oneWorker = false;
  if (listed && costs && !envVar('HARNESS_WORKERS', ctx.env)) {
    const prelim = estimateCost({
      cfg,
      areas: running,
      tests: listed.map((t) => t.title),
      costs,
      fuzz: size,
      delivery,
      env: ctx.env,
    });
    oneWorker = pacedByKey(budget, prelim.key);
    if (oneWorker) ctx.env.HARNESS_WORKERS = '1';
  }
  let leftOut: ListedTest[] = [];
  let fuzzDoesNotFit = false;
  if (cfg.maxRequests !== undefined && costs) {
    const fit = fitToMaxRequests({
      max: cfg.maxRequests,
      costs,
      tests: (listed ?? []).map((t) => t.title),
      ...(running.has('fuzz') ? { fuzz: size } : {}),
      fuzzers: { input: !cfg.readOnly, delivery, admin: deliveryAdmin },
      env: ctx.env,
    });
    if (fit.fuzz) size = fit.fuzz;
    if (fit.fuzzLeftOut) skip.set('fuzz', fit.fuzzLeftOut);
    fuzzDoesNotFit = Boolean(fit.fuzzLeftOut);
    const out = new Set(fit.leftOut);
    leftOut = (listed ?? []).filter((t) => out.has(t.title));
    listed = listed?.filter((t) => !out.has(t.title));
    running = new Set([...running].filter((a) => !skip.has(a)));
  }
  const estimate = estimateCost({
    cfg,
    areas: running,
    tests: listed?.map((t) => t.title),
    costs,
    fuzz: size,
    ...(budget ? { budget } : {}),
    delivery,
    deliveryAdmin,
    env: ctx.env,
  });
  for (const l of costLines(estimate)) log(l);
  if (oneWorker)
    log(
      '  contracts: one worker — the key’s budget paces the run, a second would only make its shared fixtures again (HARNESS_WORKERS to choose)',
    );
  if (cfg.maxRequests !== undefined && (!costs || (running.has('contracts') && !listed)))
    log(
      `  --max-requests ${cfg.maxRequests}: cannot plan the contract suite (${costs ? 'Playwright could not list its tests' : 'contracts/request-costs.json is missing'}): it runs whole`,
    );
  else if (cfg.maxRequests !== undefined)
    log(
      `  --max-requests ${cfg.maxRequests}: ${leftOut.length ? `${leftOut.length} contract tests do not fit and are not run (listed at the end)` : 'every selected contract test fits'}${fuzzDoesNotFit ? '; the fuzz does not fit' : ''}`,
    );

  /** Runs `step` as area `name` unless skipped, out of time or the target went down. */
  const area = async (
    name: Area | 'detection',
    label: string,
    step: (msLeft: number) => Promise<AreaSummary>,
  ): Promise<void> => {
    const notSelected = name !== 'detection' && skip.get(name);
    if (notSelected) {
      areas[name] = notRunArea(notSelected);
      return;
    }
    const stopped = stopReason(clock);
    if (run.outOfTime || stopped) {
      areas[name] = errorArea(`not run: ${stopped ?? `${clock.limitName} was reached`}`);
      return;
    }
    // A real target that died since the last area is named once, not re-discovered by each check.
    if (down || (name !== 'contracts' && name !== 'detection' && (await wentDown()))) {
      areas[name] = errorArea(`not run: ${down}`);
      return;
    }
    log(label);
    // The contract suite stops itself at the limit and keeps what it found; the grace lets it.
    const g = await guardArea(name, clock, step, log, name === 'contracts' ? 20_000 : 0);
    areas[name] = g.area;
    run.outOfTime ||= g.outOfTime;
    // An area that broke off on a real target: say so when the target is the reason.
    if (
      g.area.verdict === 'error' &&
      !g.outOfTime &&
      !stopReason(clock) &&
      !down &&
      (await wentDown())
    ) {
      areas[name] = { ...g.area, error: `${down} — ${g.area.error}` };
      areas[name].headline = areas[name].error!;
    }
  };

  await area('contracts', '[1/3] contract suite (Playwright)…', async (left) => {
    const c = await runContractsStep({
      cfg,
      env: ctx.env,
      out: ctx.out,
      runId: ctx.runId,
      timeoutMs: Math.min(opts.contractsTimeoutMs ?? 600_000, left),
      limitName: left < (opts.contractsTimeoutMs ?? 600_000) ? clock.limitName : undefined,
      grep: opts.grep,
      ...(leftOut.length
        ? {
            leftOut: {
              tests: leftOut,
              all: (listed ?? []).length === 0,
              reason: `not run: does not fit --max-requests ${cfg.maxRequests} (its measured cost, contracts/request-costs.json)`,
            },
          }
        : {}),
      verbose: opts.verbose !== false,
      tags: opts.tags ?? false,
      signal: opts.signal,
    });
    run.tests = c.tests;
    run.results = c.results;
    if (c.targetDown) down = c.targetDown;
    return c.area;
  });
  run.complete = !skip.has('contracts') && areas.contracts?.verdict !== 'error';

  let loadRequests: LoadCount | undefined;
  await area('load', '[2/3] plan-limit load checks…', async () => {
    const l = await runLoadStep(cfg, ctx.out, log, startService, opts.timeScale);
    run.limits = l.limits;
    loadRequests = loadCount(l.results);
    return l.area;
  });

  // Held to --max-requests: the fuzz is fitted again to what the contract suite really left.
  if (cfg.maxRequests !== undefined && costs && !skip.has('fuzz')) {
    const sent = skip.has('contracts') ? 0 : contractRequestStats(ctx.out).sent;
    const refit = fitToMaxRequests({
      max: cfg.maxRequests - sent,
      costs,
      tests: [],
      fuzz: size,
      fuzzers: { input: !cfg.readOnly, delivery, admin: deliveryAdmin },
    });
    if (refit.fuzz) size = refit.fuzz;
    else
      skip.set(
        'fuzz',
        `not run: the contract suite sent ${sent} of --max-requests ${cfg.maxRequests}; no fuzz of any size fits the rest`,
      );
  }

  let fuzzRequests: RateStats | undefined;
  let fuzzReads: ReadStats | undefined;
  let fuzzMark: number | undefined;
  await area('fuzz', '[3/3] webhook signature fuzzing…', async () => {
    const before = processRateStats();
    const readBefore = processReadStats();
    const mark = ledgerMark();
    fuzzMark = mark;
    try {
      return await runFuzzStep(
        cfg,
        log,
        { start: startService, exampleReceiver: createReceiver },
        { size, ...(budget ? { limitPerMin: budget.limitPerMin } : {}) },
      );
    } finally {
      // What the fuzzers created is closed before the area ends (and counted as its requests).
      run.created = await cleanUpSince(cfg, mark, 'fuzz');
      fuzzRequests = statsSince(processRateStats(), before);
      fuzzReads = addReadStats(processReadStats(), readBefore, -1);
    }
  });

  // What the run cost the target's rate limits (shared staging): one line, and summary.json.
  run.requests = requestCount(
    {
      contracts: skip.has('contracts') ? undefined : contractRequestStats(ctx.out),
      fuzz: fuzzRequests,
    },
    loadRequests,
    [...(skip.has('contracts') ? [] : contractWaits(ctx.out)), ...processWaits()],
  );
  run.requests.estimate = estimate;
  // The wait held against the refill the run's requests with its key needed (at the start's Remaining).
  if (budget && cfg.baseUrl && cfg.apiKey) {
    const keySent =
      (skip.has('contracts') ? 0 : contractKeySent(ctx.out)) +
      rateBudget(cfg.baseUrl, `Bearer ${cfg.apiKey}`).stats.sent;
    const t = budgetTime(keySent, budget);
    run.requests.refill = {
      keySent,
      limitPerMin: budget.limitPerMin,
      availableNow: t.availableNow,
      neededS: Math.round(t.waitS * 10) / 10,
    };
  }
  if (cfg.maxRequests !== undefined)
    run.requests.maxRequests = {
      limit: cfg.maxRequests,
      contractTestsNotRun: leftOut.length,
      fuzz: skip.get('fuzz') ?? size.why,
    };
  const lowest = [
    skip.has('contracts') ? undefined : contractLowestRemaining(ctx.out),
    cfg.baseUrl && cfg.apiKey
      ? rateBudget(cfg.baseUrl, `Bearer ${cfg.apiKey}`).lowestRemaining
      : undefined,
  ].filter((n): n is number => n !== undefined);
  if (lowest.length) run.requests.lowestRemaining = Math.min(...lowest);
  log(requestLine(run.requests));
  // Cut short by the time limit, the fuzz area never reached its clean-up: say what it left.
  if (fuzzMark !== undefined && !run.created) run.created = uncleanedSince(cfg, fuzzMark, 'fuzz');
  run.reads = readCount({
    contracts: skip.has('contracts') ? undefined : readReads(ctx.out),
    fuzz: fuzzReads,
  });

  if (opts.detect) {
    if (cfg.baseUrl)
      areas.detection = notRunArea(
        'not run: the detection matrix needs the embedded reference deployment',
      );
    else
      await area(
        'detection',
        '[+] detection matrix: the suite against each contract/webhook fault…',
        async () => detectionArea(await runDetectionMatrix(join(ctx.out, 'detection'))),
      );
  }
  return run;
}
