/**
 * Runs plans on a fresh reference deployment with the chosen engine (the load suites of both
 * engines), and the one retry those suites allow: a measurement whose outcome was wrong is repeated once, and only
 * when the machine demonstrably could not keep the schedule (shared 2-core machines, slow CI).
 * The check itself never changes; a wrong outcome on a machine that kept up fails at once.
 */
import { cpus, loadavg } from 'node:os';
import type { LoadResult, PlanName } from '../../load/lib/index.ts';
import { startService } from '../../server/start.ts';
import { runLoad } from '../../load/run-load.ts';
import { oneLoadAtATime } from './one-load-at-a-time.ts';

/** The shortened schedule of reference-deployment.test.ts: ~47 server seconds. */
export const SHORT = { overdriveS: 8, underRateS: 6, idleS: [10, 20] as [number, number] };

export interface MeasureOptions {
  faults?: string[];
  schedule?: 'short' | 'full';
  /** Wall-clock cap of the burst rate (the engines' defaults differ: k6 500/s, Node 4000/s). */
  maxRealRate?: number;
  /** Enterprise numbers handed to the engine: 'burst' (Node reads the rate from the headers), 'both' (k6 cannot probe). */
  enterprise?: 'burst' | 'both';
  /** Hard wall-clock limit of the run. Default 150 s. */
  maxSeconds?: number;
}

/**
 * Every plan of `plans` at once (as `--plan all` runs them) on one fresh deployment; never
 * beside a measurement of another test file (one-load-at-a-time.ts).
 */
export async function measurePlans(
  engine: 'node' | 'k6',
  plans: readonly PlanName[],
  timeScale: number,
  o: MeasureOptions = {},
): Promise<LoadResult[]> {
  return oneLoadAtATime(() => measureNow(engine, plans, timeScale, o));
}

async function measureNow(
  engine: 'node' | 'k6',
  plans: readonly PlanName[],
  timeScale: number,
  o: MeasureOptions,
): Promise<LoadResult[]> {
  const svc = await startService({ timeScale, faults: o.faults ?? [] });
  try {
    const ws = svc.credentials.workspaces;
    return await runLoad({
      plans,
      baseUrl: svc.baseUrl,
      keys: Object.fromEntries(plans.map((p) => [p, [ws[p].keys.full, ws[p].keys.full2]])),
      // The seeded `other` workspace: no plan here drains it (S5w, the other-workspace verdict).
      otherWorkspaceKey: ws.other.keys.full,
      engine,
      timeScale,
      outDir: null,
      maxSeconds: o.maxSeconds ?? 150,
      ...(o.enterprise
        ? {
            enterprise: {
              burst: ws.enterprise.burst,
              ...(o.enterprise === 'both' ? { ratePerMin: ws.enterprise.rate } : {}),
            },
          }
        : {}),
      ...((o.schedule ?? 'short') === 'short'
        ? { schedule: { ...SHORT, idleS: [...SHORT.idleS] } }
        : {}),
    });
  } finally {
    await svc.close();
  }
}

export async function measure(
  engine: 'node' | 'k6',
  plan: PlanName,
  timeScale: number,
  o: MeasureOptions = {},
): Promise<LoadResult> {
  const [r] = await measurePlans(engine, [plan], timeScale, o);
  return r!;
}

/**
 * Why a run's timing cannot be trusted, or undefined: sends lagged their slots by more than
 * half a refill interval at p99 (the estimators' brackets then widen, and a classification can
 * tip), or the machine's load average was above twice its cores while it ran.
 */
export function busyReason(
  results: readonly LoadResult[],
  load1 = loadavg()[0]!,
): string | undefined {
  const reasons: string[] = [];
  for (const r of results) {
    const p99 = r.requests.pacing?.p99Ms;
    const halfToken = 500 / ((r.limits.ratePerMin / 60) * r.target.timeScale);
    if (p99 !== undefined && p99 > halfToken)
      reasons.push(
        `${r.engine} ${r.plan}: sends lagged ${p99.toFixed(0)} ms at p99 (half a refill interval is ${halfToken.toFixed(0)} ms)`,
      );
  }
  const cores = cpus().length;
  if (load1 > 2 * cores) reasons.push(`load average ${load1.toFixed(1)} on ${cores} cores`);
  return reasons.length ? reasons.join('; ') : undefined;
}

/**
 * Runs `run(1)`; when `problem` finds something wrong with the outcome and the machine was
 * demonstrably busy, says so and measures once more as `run(RETRY_SLOWER)`: the same plan at a
 * clock that many times slower (the caller divides its time scale by it), so every slot and
 * refill interval gives the busy machine that much more slack. Returns the last outcome (the caller
 * asserts on it), the retry reason, if any, and — when the second outcome is still wrong and the
 * machine was busy again — why nothing can be concluded (`busy`: the caller skips with it rather
 * than fail a correct limiter or pass a broken one on timing it could not keep).
 */
/** How many times slower the clock of the one re-measurement runs. */
export const RETRY_SLOWER = 2;

export async function measureWithOneRetry<T extends readonly LoadResult[]>(
  label: string,
  run: (slower: number) => Promise<T>,
  problem: (results: T) => string | undefined,
  busyOf: (results: T) => string | undefined = busyReason,
  /** A reason to re-measure a wrong outcome even when the machine kept up (first outcome only). */
  coarseOf: (results: T) => string | undefined = () => undefined,
): Promise<{ results: T; retried?: string; busy?: string }> {
  const first = await run(1);
  const wrong = problem(first);
  if (wrong === undefined) return { results: first };
  const machine = busyOf(first);
  const coarse = machine === undefined ? coarseOf(first) : undefined;
  if (machine === undefined && coarse === undefined) return { results: first };
  const why =
    machine !== undefined ? `machine busy (${machine})` : `measured too coarsely: ${coarse}`;
  const retried = `${label}: ${wrong} — ${why}; measuring once more, the clock ${RETRY_SLOWER}× slower`;
  console.log(`# ${retried}`);
  const second = await run(RETRY_SLOWER);
  const still = problem(second);
  const busyAgain = still === undefined ? undefined : busyOf(second);
  return {
    results: second,
    retried,
    ...(busyAgain ? { busy: `${label}: ${still} — machine busy again (${busyAgain})` } : {}),
  };
}

/**
 * Skips the test when both measurements ran on a machine that could not keep the schedule: the
 * timing says nothing either way. On a machine that kept it, the assertions run unchanged.
 */
export function skipWhenBusy(
  t: { skip(message?: string): void },
  busy: string | undefined,
): boolean {
  if (busy === undefined) return false;
  console.log(`# not concluded: ${busy}`);
  t.skip(`not concluded, the machine could not keep the schedule twice: ${busy}`);
  return true;
}

export const failedIds = (r: LoadResult): string[] =>
  r.verdicts.filter((v) => v.status === 'fail').map((v) => v.id);
/** The verdicts of `ids` whose status is anything but pass (fail, inconclusive, skipped). */
export const notPassed = (r: LoadResult, ids: readonly string[]): string[] =>
  r.verdicts
    .filter((v) => ids.includes(v.id) && v.status !== 'pass')
    .map((v) => `${v.id} ${v.status}`);
export const explain = (r: LoadResult) =>
  JSON.stringify(
    {
      engine: r.engine,
      plan: r.plan,
      failed: r.verdicts.filter((v) => v.status !== 'pass'),
      burst: r.estimates.burst,
      rate: r.estimates.rate,
      limiter: r.limiter,
      pacing: r.requests.pacing,
      dropped: r.requests.dropped,
    },
    null,
    1,
  );
