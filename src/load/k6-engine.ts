/**
 * The k6 engine: spawns `k6 run load/plan-limits.ts` for one plan and reads the result its
 * handleSummary writes (the same LoadResult the Node engine returns). Keys travel in the
 * environment, never on the command line where `ps` would show them.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { LoadResult, PlanName, PlanOverrides } from '../../load/lib/index.ts';

/** The k6 binary on PATH, or undefined. */
export function findK6(pathEnv = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, process.platform === 'win32' ? 'k6.exe' : 'k6');
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {}
  }
  return undefined;
}

export interface K6PlanOptions {
  k6: string;
  plan: PlanName;
  baseUrl: string;
  keys: readonly string[];
  timeScale: number;
  /** Hard wall-clock limit: k6 is killed when it is reached. */
  maxSeconds: number;
  enterprise?: PlanOverrides;
  script: string;
  /** Stops k6 early (the run's time limit, or a sibling plan that failed). */
  signal?: AbortSignal;
}

/** After SIGINT k6 still runs handleSummary; one that hangs beyond this is killed outright. */
const KILL_GRACE_MS = 15_000;

export async function runPlanK6(o: K6PlanOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'harness-k6-'));
  const summary = join(dir, `load-${o.plan}.json`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PLAN: o.plan,
    BASE_URL: o.baseUrl,
    TIME_SCALE: String(o.timeScale),
    SUMMARY_PATH: summary,
    PLAN_KEYS: o.keys.join(','),
    K6_NO_USAGE_REPORT: 'true',
  };
  if (o.enterprise?.ratePerMin !== undefined) env.ENTERPRISE_RATE = String(o.enterprise.ratePerMin);
  if (o.enterprise?.burst !== undefined) env.ENTERPRISE_BURST = String(o.enterprise.burst);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(o.k6, ['run', '--quiet', o.script], {
        env,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      let hard: NodeJS.Timeout | undefined;
      const stop = () => {
        child.kill('SIGINT');
        hard ??= setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      };
      const timer = setTimeout(stop, o.maxSeconds * 1000);
      o.signal?.addEventListener('abort', stop, { once: true });
      child.on('error', reject);
      child.on('exit', (c) => {
        clearTimeout(timer);
        if (hard) clearTimeout(hard);
        o.signal?.removeEventListener('abort', stop);
        resolve(c ?? 1);
      });
    });
    let text: string;
    try {
      text = readFileSync(summary, 'utf8');
    } catch {
      throw new Error(`k6 exited with ${code} and wrote no summary for plan ${o.plan}`);
    }
    // Thresholds failing make k6 exit 99; the verdicts inside the JSON say why.
    return JSON.parse(text) as LoadResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
