/** Runs one plan on a fresh reference deployment with the chosen engine (the k6 suites). */
import type { LoadResult, PlanName } from '../../load/lib/index.ts';
import { startService } from '../../server/start.ts';
import { runLoad } from '../../src/load/run-load.ts';

/** The shortened schedule of reference-deployment.test.ts: ~47 server seconds. */
export const SHORT = { overdriveS: 8, underRateS: 6, idleS: [10, 20] as const };

export async function measure(
  engine: 'node' | 'k6',
  plan: PlanName,
  timeScale: number,
  faults: string[] = [],
  schedule: 'short' | 'full' = 'short',
): Promise<LoadResult> {
  const svc = await startService({ timeScale, faults });
  try {
    const ws = svc.credentials.workspaces[plan];
    const [res] = await runLoad({
      plans: [plan],
      baseUrl: svc.baseUrl,
      keys: { [plan]: [ws.keys.full, ws.keys.full2] },
      engine,
      timeScale,
      outDir: null,
      maxSeconds: 150,
      ...(schedule === 'short'
        ? { schedule: { ...SHORT, idleS: [...SHORT.idleS] as [number, number] } }
        : {}),
    });
    return res!;
  } finally {
    await svc.close();
  }
}

export const failedIds = (r: LoadResult): string[] =>
  r.verdicts.filter((v) => v.status === 'fail').map((v) => v.id);
export const explain = (r: LoadResult) =>
  JSON.stringify(
    {
      engine: r.engine,
      failed: r.verdicts.filter((v) => v.status !== 'pass'),
      burst: r.estimates.burst,
      rate: r.estimates.rate,
      limiter: r.limiter,
    },
    null,
    1,
  );
