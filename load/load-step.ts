/**
 * The plan-limit area of `harness run`: against the embedded deployment Team and Growth in real
 * time (two keys each, so the scope phase runs, and another workspace's key beside them);
 * against a real target, the plans whose keys are configured. Verdicts become failures by provenance; inconclusive ones are listed as such.
 */
import type { PlanName } from './lib/index.ts';
import type { LoadResult } from './lib/result.ts';
import type { HarnessConfig } from '../core/config.ts';
import { loadFailures, loadNotRun } from './failures.ts';
import { runLoad, summaryLine } from './run-load.ts';
import { limitObservation } from './limit-observation.ts';
import type { PlanLimitObservation } from '../core/snapshot/types.ts';
import {
  type AreaSummary,
  emptyArea,
  errorArea,
  fileFailures,
  judged,
  notRunArea,
  reasonOf,
} from '../core/area.ts';
import { resolveTarget, type StartEmbedded } from '../core/target/resolve-target.ts';

/** The load area's own wall-clock limit, s (k6 or the Node driver is stopped there). */
export const LOAD_STEP_MAX_SECONDS = 170;

export async function runLoadStep(
  cfg: HarnessConfig,
  out: string,
  log: (l: string) => void,
  /** How to start the embedded deployment (server/start.ts, from the run). */
  start?: StartEmbedded,
  /** The target's clock speed (`harness run --time-scale`): the schedule is that much shorter. */
  timeScale = 1,
): Promise<{ area: AreaSummary; limits: PlanLimitObservation[]; results: LoadResult[] }> {
  // The embedded deployment: Team and Growth, two keys each, in real time (or at `timeScale`).
  const target = await resolveTarget(cfg, { plans: ['team', 'growth'], start, timeScale });
  try {
    const keys = target.keys.plans;
    const plans = Object.keys(keys) as PlanName[];
    if (plans.length === 0) {
      const reason =
        'not run: needs HARNESS_TEAM_KEYS / HARNESS_GROWTH_KEYS (keys of a workspace on that plan)';
      return { area: notRunArea(reason, 'plan limits'), limits: [], results: [] };
    }
    const results = await runLoad({
      plans,
      baseUrl: target.baseUrl,
      keys,
      // HARNESS_OTHER_WORKSPACE_KEY; on the embedded deployment the seeded `other` workspace's,
      // which no plan of this run drains.
      otherWorkspaceKey: target.keys.otherWorkspace,
      // k6 when the user has one (K6_BIN or PATH), else the Node driver: same JSON, same judge.
      engine: 'auto',
      timeScale,
      outDir: out,
      progress: process.stderr,
      allowInsecureRemote: cfg.allowInsecure,
      maxSeconds: LOAD_STEP_MAX_SECONDS,
    });
    for (const r of results) log(`  ${summaryLine(r)}`);
    return { area: loadArea(results), limits: results.map(limitObservation), results };
  } catch (e) {
    // The run could not be made (a dead target, a refused plain-HTTP URL, k6 missing…): that is
    // "could not run" (exit 2), not a broken documented rule.
    return { area: errorArea(`load run failed: ${reasonOf(e)}`), limits: [], results: [] };
  } finally {
    await target.close();
  }
}

export function loadArea(results: LoadResult[]): AreaSummary {
  const area: AreaSummary = { ...emptyArea(), details: results };
  // Each run reports in the one failure shape (load/failures.ts); the area files them.
  for (const r of results) {
    fileFailures(area, loadFailures(r));
    area.notRun.push(...loadNotRun(r));
  }
  area.verdict = judged(area.documentedFailures.length, area.assumptionMismatches.length);
  area.headline = results.map((r) => summaryLine(r)).join(' | ');
  return area;
}
