/**
 * `runLoad(options)`: the plan-limit load checks, programmatic entry point (the CLI and
 * `npm start` call it). Plans run in parallel, each on the Node engine or k6, under one request
 * budget and one time limit that no plan can exceed; results go to `load-<plan>.json` and
 * `.svg` in the caller's report directory (`harness load`: reports/load/; `npm start`: the run's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSchedule,
  type LiveProgress,
  type LoadResult,
  type PlanName,
  type PlanOverrides,
  type ProbeHint,
  resultProgress,
  resolvePlan,
  type ScheduleOptions,
} from './lib/index.ts';
import { redact, redactValue, registerSecret } from '../core/redact.ts';
import { renderLoadChart } from './chart-svg.ts';
import { findK6, probeEnterprise, runPlanK6 } from './k6-engine.ts';
import { runPlanNode } from './node-engine.ts';
import { type ProgressTicker, startTicker } from './progress-ticker.ts';
import { RequestBudget } from './request-budget.ts';
import { assertSafeTarget } from './target-guard.ts';

export type EngineChoice = 'auto' | 'node' | 'k6';

export interface LoadOptions {
  plans: readonly PlanName[];
  baseUrl: string;
  /** Keys per plan; the second key of a plan (same workspace) enables the scope phase S5. */
  keys: Partial<Record<PlanName, readonly string[]>>;
  /**
   * A key of another workspace (HARNESS_OTHER_WORKSPACE_KEY), none of whose keys any plan of the
   * run drains: every plan sends it a few requests right after its burst (S5w, the
   * other-workspace verdict). Without it, or when it is one of the plans' own keys, that verdict
   * is skipped.
   */
  otherWorkspaceKey?: string | undefined;
  /** Default 'auto': k6 when K6_BIN or PATH has one, else Node. 'k6' also finds ../shared/bin/k6. */
  engine?: EngineChoice;
  /** Server clock speed relative to wall time. Default 1. */
  timeScale?: number;
  /** Total requests all plans together may send. Default 10 000. */
  budget?: number;
  /** Wall-clock limit for the whole run, seconds. Default 180. */
  maxSeconds?: number;
  /** Allow plain HTTP to a non-loopback host. Default false. */
  allowInsecureRemote?: boolean;
  /** Enterprise numbers; unset ones come from the deployment's headers. */
  enterprise?: PlanOverrides;
  /** Report directory (the caller owns and empties it); null writes nothing. Default `reports/load`. */
  outDir?: string | null;
  /**
   * Progress on this stream (stderr in the CLI): phase, requests sent, 2xx, 429 and the running
   * estimate of each plan — one live line on a TTY, plain lines every `progressEveryMs`
   * otherwise (CI logs), and each plan's final state at the end. Default none.
   */
  progress?: NodeJS.WriteStream | NodeJS.WritableStream | null;
  /** How often plain progress lines are written when the stream is no TTY. Default 5000. */
  progressEveryMs?: number;
  /** Schedule overrides (tests shorten phases). */
  schedule?: ScheduleOptions;
}

const root = fileURLToPath(new URL('..', import.meta.url));

export async function runLoad(o: LoadOptions): Promise<LoadResult[]> {
  const run = prepareRun(o);
  const timer = setTimeout(() => run.abort.abort(), run.maxSeconds * 1000);
  const ticker = o.progress
    ? startTicker(
        o.progress,
        run.progress,
        `${run.k6 ? 'k6' : 'node'} starting ${o.plans.join(', ')}`,
        o.progressEveryMs ?? 5000,
      )
    : undefined;
  run.ticker = ticker;
  try {
    const settled = await Promise.allSettled(
      o.plans.map((plan) =>
        // One plan failing (a budget it cannot reserve, a probe that cannot size it) stops the
        // others at once: the run ends here, not when its siblings happen to finish.
        runPlan(run, plan).catch((e: unknown) => {
          run.abort.abort();
          throw e;
        }),
      ),
    );
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure) throw failure.reason;
    const clean = settled.map((s) => redactValue((s as PromiseFulfilledResult<LoadResult>).value));
    // The final line of each plan: its real counts (k6's last live reading may be seconds old).
    for (const r of clean) run.progress.set(r.plan, () => resultProgress(r));
    if (o.outDir !== null) writeReports(clean, o.outDir ?? join(root, 'reports', 'load'));
    return clean;
  } finally {
    clearTimeout(timer);
    ticker?.stop();
  }
}

/** The options checked and defaulted (refusing a run that cannot hold) and what plans share. */
function prepareRun(o: LoadOptions) {
  const url = assertSafeTarget(o.baseUrl, o.allowInsecureRemote ?? false);
  const timeScale = o.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error(`--time-scale must be > 0, got ${timeScale}`);
  const maxSeconds = o.maxSeconds ?? 180;
  const budget = new RequestBudget(o.budget ?? 10_000);
  registerSecret(o.otherWorkspaceKey);
  // A plan's own key is drained by that plan's burst beside this one's: no other workspace.
  const otherWorkspaceKey =
    o.otherWorkspaceKey && !Object.values(o.keys).some((ks) => ks?.includes(o.otherWorkspaceKey!))
      ? o.otherWorkspaceKey
      : undefined;
  for (const plan of o.plans) {
    const keys = o.keys[plan] ?? [];
    if (keys.length === 0)
      throw new Error(`plan ${plan}: no keys (set HARNESS_${plan.toUpperCase()}_KEYS)`);
    for (const k of keys) registerSecret(k);
    // Pre-flight: refuse a run the limits cannot hold, before the first request.
    if (plan !== 'enterprise' || (o.enterprise?.burst && o.enterprise.ratePerMin)) {
      const s = scheduleOf(o, plan, timeScale, otherWorkspaceKey);
      if (s.totalMs / 1000 > maxSeconds)
        throw new Error(
          `plan ${plan} needs ~${Math.ceil(s.totalMs / 1000)} s but --max-seconds is ${maxSeconds}`,
        );
    }
  }
  const engine = o.engine ?? 'auto';
  // auto: only a k6 the user installed (K6_BIN, PATH); --engine k6 also takes the shared
  // development copy ../shared/bin/k6 (see load/README.md).
  const k6 = engine === 'node' ? undefined : findK6({ shared: engine === 'k6' })?.path;
  if (engine === 'k6' && !k6)
    throw new Error('--engine k6: no k6 (set K6_BIN or put k6 on PATH; see load/README.md)');
  const progress = new Map<PlanName, () => LiveProgress | undefined>();
  return {
    o,
    otherWorkspaceKey,
    url,
    timeScale,
    maxSeconds,
    budget,
    k6,
    abort: new AbortController(),
    progress,
    /** The live progress, once it runs: text beside it (k6's console) goes above it. */
    ticker: undefined as ProgressTicker | undefined,
  };
}

/** The schedule a plan runs (Enterprise: its numbers from the options, else from the probe). */
function scheduleOf(
  o: LoadOptions,
  plan: PlanName,
  timeScale: number,
  otherWorkspaceKey: string | undefined,
  probe?: ProbeHint,
) {
  return buildSchedule(resolvePlan(plan, plan === 'enterprise' ? o.enterprise : {}, probe), {
    timeScale,
    keys: (o.keys[plan] ?? []).length,
    otherWorkspace: otherWorkspaceKey !== undefined,
    ...o.schedule,
  });
}

/** One plan on the run's engine, its requests counted against the run's one budget. */
async function runPlan(run: ReturnType<typeof prepareRun>, plan: PlanName): Promise<LoadResult> {
  const { o, url, timeScale, budget, k6, abort, otherWorkspaceKey } = run;
  // What both engines take alike.
  const common = {
    plan,
    keys: o.keys[plan] ?? [],
    otherWorkspaceKey,
    timeScale,
    signal: abort.signal,
    enterprise: o.enterprise,
    schedule: o.schedule,
    onProgress: (read: () => LiveProgress | undefined) => run.progress.set(plan, read),
  };
  if (!k6) return runPlanNode({ ...common, baseUrl: url, budget }).then((node) => node.result);
  // k6 sends exactly the planned requests (fixed iterations): reserved up front,
  // like the Node driver's, so the budget bounds both engines alike.
  const baseUrl = url.href.replace(/\/$/, '');
  let probe: ProbeHint = {};
  if (plan === 'enterprise') {
    budget.reserve(1, `the probe of plan ${plan}`);
    budget.take();
    probe = await probeEnterprise(baseUrl, common.keys[0]!, o.enterprise, timeScale, abort.signal);
  }
  const schedule = scheduleOf(o, plan, timeScale, otherWorkspaceKey, probe);
  const planned = schedule.totalRequests;
  budget.reserve(planned, `plan ${plan}`);
  const beside = run.ticker ?? o.progress;
  beside?.write(`load ${plan}: k6 run load/plan-limits.ts\n`);
  return runPlanK6({
    ...common,
    k6,
    baseUrl,
    maxSeconds: run.maxSeconds,
    script: join(root, 'load', 'plan-limits.ts'),
    progress: beside ?? null,
    planned,
    idleS: Object.fromEntries(
      schedule.phases.filter((p) => p.idleBeforeS > 0).map((p) => [p.name, p.idleBeforeS]),
    ),
    enterpriseProbe: probe,
  });
}

function writeReports(results: readonly LoadResult[], dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const r of results) {
    writeFileSync(join(dir, `load-${r.plan}.json`), `${JSON.stringify(r, null, 2)}\n`);
    writeFileSync(join(dir, `load-${r.plan}.svg`), redact(renderLoadChart(r)));
  }
}

/** One line per plan for summaries (npm start, CLI). */
export function summaryLine(r: LoadResult): string {
  const b = r.estimates.burst;
  const rate = r.estimates.rate;
  // A documented verdict an assumed model decided says so: it does not fail the gate.
  const failed = r.verdicts
    .filter((v) => v.status === 'fail')
    .map((v) => (v.leansOn ? `${v.id} (on ${v.leansOn.gap})` : v.id));
  // A run is only as good as its measurement: say which verdicts could not be decided.
  const open = r.verdicts.filter((v) => v.status === 'inconclusive').map((v) => v.id);
  return `${r.plan.padEnd(10)} B̂ ${b?.value != null ? `${b.value.toFixed(1)} ± ${b.uncertainty.toFixed(1)}` : 'n/a'} (plan ${r.limits.burst}) · r̂ ${
    Number.isFinite(rate.perMin)
      ? `${rate.perMin.toFixed(1)}/min ± ${(rate.relUncertainty * 100).toFixed(1)} %`
      : 'n/a'
  } (plan ${r.limits.ratePerMin}) · ${r.limiter.algorithm} · Reset ${r.resetUnit.unit} · scope ${r.scope.scope} · ${
    failed.length ? `FAIL: ${failed.join(', ')}` : 'pass'
  }${open.length ? ` (inconclusive: ${open.join(', ')})` : ''} [${r.engine}, ${r.wallSeconds.toFixed(0)} s]`;
}
