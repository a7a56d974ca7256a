/**
 * The plan-limit area of `harness run`: against the embedded deployment Team and Growth in real
 * time (two keys each, so the scope phase runs); against a real target, the plans whose keys
 * are configured. Verdicts become failures by provenance; inconclusive ones are listed as such.
 */
import type { LoadResult } from '../../load/lib/result.ts';
import { startService } from '../../server/start.ts';
import type { HarnessConfig } from '../config.ts';
import { runLoad, summaryLine } from '../load/run-load.ts';
import type { PlanLimitObservation } from '../report/snapshot.ts';
import type { AreaSummary } from '../report/summary.ts';

type PlanName = 'team' | 'growth' | 'enterprise';

export async function runLoadStep(
  cfg: HarnessConfig,
  out: string,
  log: (l: string) => void,
): Promise<{ area: AreaSummary; limits: PlanLimitObservation[]; results: LoadResult[] }> {
  const embedded = cfg.baseUrl ? undefined : await startService({ faults: cfg.faults });
  try {
    const keys: Partial<Record<PlanName, string[]>> = {};
    if (embedded) {
      const w = embedded.credentials.workspaces;
      keys.team = [w.team.keys.full, w.team.keys.full2];
      keys.growth = [w.growth.keys.full, w.growth.keys.full2];
    } else {
      for (const p of ['team', 'growth', 'enterprise'] as const)
        if (cfg.planKeys[p].length > 0) keys[p] = cfg.planKeys[p];
    }
    const plans = Object.keys(keys) as PlanName[];
    if (plans.length === 0) {
      const reason =
        'not run: needs HARNESS_TEAM_KEYS / HARNESS_GROWTH_KEYS (keys of a workspace on that plan)';
      return {
        area: {
          verdict: 'not-run',
          headline: reason,
          documentedFailures: [],
          assumptionMismatches: [],
          notRun: [{ name: 'plan limits', reason }],
        },
        limits: [],
        results: [],
      };
    }
    const results = await runLoad({
      plans,
      baseUrl: embedded?.baseUrl ?? cfg.baseUrl!,
      keys,
      // k6 when the user has one (K6_BIN or PATH), else the Node driver: same JSON, same judge.
      engine: 'auto',
      outDir: out,
      progress: process.stderr,
      allowInsecureRemote: cfg.allowInsecure,
      maxSeconds: 170,
    });
    for (const r of results) log(`  ${summaryLine(r)}`);
    return { area: loadArea(results), limits: results.map(observation), results };
  } catch (e) {
    const reason = `load run failed: ${(e as Error).message}`;
    return {
      area: {
        verdict: 'fail',
        headline: reason,
        documentedFailures: [
          {
            check: 'load.run',
            provenance: 'documented',
            rule: 'The plan-limit run completes.',
            received: reason,
            expected: 'a completed run',
          },
        ],
        assumptionMismatches: [],
        notRun: [],
      },
      limits: [],
      results: [],
    };
  } finally {
    await embedded?.close();
  }
}

export function loadArea(results: LoadResult[]): AreaSummary {
  const area: AreaSummary = {
    verdict: 'pass',
    headline: '',
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [],
    details: results,
  };
  for (const r of results) {
    for (const v of r.verdicts) {
      const f = {
        check: `load.${v.id}`,
        provenance: v.provenance === 'documented' ? ('documented' as const) : ('assumed' as const),
        rule: `${r.plan}: ${v.title}`,
        received: v.observed,
        expected: v.expected,
      };
      if (v.status === 'fail')
        (v.provenance === 'documented' ? area.documentedFailures : area.assumptionMismatches).push(
          f,
        );
      else if (v.status === 'inconclusive')
        area.notRun.push({ name: `${r.plan} ${v.id}`, reason: `inconclusive: ${v.observed}` });
    }
  }
  area.verdict = area.documentedFailures.length
    ? 'fail'
    : area.assumptionMismatches.length
      ? 'warn'
      : 'pass';
  area.headline = results.map((r) => summaryLine(r)).join(' | ');
  return area;
}

function observation(r: LoadResult): PlanLimitObservation {
  return {
    plan: r.plan,
    burst: r.estimates.burst?.value != null ? Math.round(r.estimates.burst.value) : undefined,
    ratePerMin: Number.isFinite(r.estimates.rate.perMin)
      ? Math.round(r.estimates.rate.perMin * 10) / 10
      : undefined,
    algorithm: r.limiter.algorithm,
    resetUnit: r.resetUnit.unit,
    scope: r.scope.scope,
  };
}
