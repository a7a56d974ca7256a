/**
 * The detection matrix's dashboard column: each webhook fault on a reference deployment in
 * dashboard mode (separate `serve --no-admin --webhook-endpoints` process per fault, reached only
 * through HARNESS_* variables), caught by its named check and by no check the catalogue does not
 * list for it (the whole webhook suite runs against each). One Playwright run, one project per
 * fault, one capture receiver on a port picked now: each deployment delivers under its own
 * public path prefix (/f/<fault>), which is how the shared receiver routes deliveries.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from '../server/faults.ts';
import { loadConfig } from '../core/config.ts';
import { writeResolved } from '../core/resolved-config.ts';
import { readChecks, readPlaywrightTests } from '../contracts/collect.ts';
import { runContracts } from '../contracts/contracts-step.ts';
import { freePort } from '../core/net.ts';
import { type ServedDeployment, serveDashboard } from './serve-process.ts';
import { type FaultJudgement, judgeFault } from './detection-judge.ts';
import { detectionLanes, detectionTimeoutMs } from './detection-limits.ts';

const root = new URL('..', import.meta.url).pathname;
export const DASHBOARD_ENDPOINTS = join(root, 'examples/webhook-endpoints.yaml');

/** Webhook faults a dashboard deployment cannot exhibit to the harness, with the reason. */
export const NOT_IN_DASHBOARD_MODE: Record<string, string> = {
  'sla-at-risk-never': 'sla.at_risk needs a clock that can be advanced (admin surface only)',
  'https-deliveries-lost':
    "the dashboard's endpoints deliver to the run's public URL, plain HTTP in this mode",
};

/** One fault's dashboard-mode result, or why the mode cannot show it. */
export type DashboardCell = FaultJudgement | { notRun: string };

/** Fresh secrets for the example file's secret_env variables. */
export function exampleSecrets(): Record<string, string> {
  return Object.fromEntries(
    ['HOOK_ALL_SECRET', 'HOOK_SUBSET_SECRET', 'HOOK_PREFIXED_SECRET', 'HOOK_PLAIN_SECRET'].map(
      (k) => [k, `whsec_${randomBytes(12).toString('base64url')}`],
    ),
  );
}

/** Dashboard-mode results of every webhook fault, by fault name. */
export async function runDashboardDetection(
  outDir: string,
  /** These faults alone (a partial matrix). */
  only?: readonly string[],
): Promise<Map<string, DashboardCell>> {
  mkdirSync(outDir, { recursive: true });
  const faults = FAULTS.filter(
    (f) =>
      f.area === 'webhooks' && !NOT_IN_DASHBOARD_MODE[f.name] && (!only || only.includes(f.name)),
  );
  const port = await freePort();
  const listen = `http://127.0.0.1:${port}`;
  const secrets = exampleSecrets();
  const served: ServedDeployment[] = [];
  const cleanUp: Array<() => void> = [];
  try {
    // Three at a time: each is a Node process compiling the server on a shared 2-core machine.
    for (let i = 0; i < faults.length; i += 3) {
      served.push(
        ...(await Promise.all(
          faults.slice(i, i + 3).map((f) =>
            serveDashboard({
              endpointsFile: DASHBOARD_ENDPOINTS,
              webhookUrl: `${listen}/f/${f.name}`,
              faults: [f.name],
              env: secrets,
            }),
          ),
        )),
      );
    }
    // The run's one receiver, which every deployment reaches under its own path prefix; each
    // project's configuration is its own deployment's credentials file over it, read here once.
    const receiver = {
      ...secrets,
      HARNESS_WEBHOOK_URL: listen,
      HARNESS_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
      HARNESS_WEBHOOK_ENDPOINTS: DASHBOARD_ENDPOINTS,
      HARNESS_WEBHOOK_RETRY_WAIT_MS: '5000',
    };
    const files = served.map((s) =>
      writeResolved({ config: loadConfig({ ...receiver, ...s.vars }) }),
    );
    cleanUp.push(...files.map((f) => f.remove));
    const run = join(outDir, 'dashboard-run');
    const json = join(outDir, 'dashboard-playwright.json');
    await runContracts(
      {
        config: loadConfig(receiver),
        suite: {
          outDir: run,
          runId: randomBytes(4).toString('hex'),
          recordOnly: true,
          projects: faults.map((f, i) => ({
            name: `dashboard:${f.name}`,
            fault: f.name,
            check: f.check,
            configFile: files[i]!.file,
            testMatch: '**/webhooks.spec.ts',
          })),
        },
      },
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          HARNESS_WORKERS: String(detectionLanes()),
          PLAYWRIGHT_JSON_OUTPUT_NAME: json,
          FORCE_COLOR: '0',
        },
        inherit: false,
        // The whole webhook suite per fault, a fault per worker: the same guard per fault.
        timeoutMs: detectionTimeoutMs(faults.length),
      },
    );
    const tests = readPlaywrightTests(json);
    const results = readChecks(run);
    const cells = new Map<string, DashboardCell>(
      Object.entries(NOT_IN_DASHBOARD_MODE).map(([fault, notRun]) => [fault, { notRun }]),
    );
    for (const f of faults) cells.set(f.name, judgeFault(`dashboard:${f.name}`, f, tests, results));
    return cells;
  } finally {
    for (const c of cleanUp) c();
    await Promise.all(served.map((s) => s.stop()));
  }
}
