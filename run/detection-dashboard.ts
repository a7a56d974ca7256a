/**
 * The detection matrix's dashboard column: each webhook fault on a reference deployment in
 * dashboard mode (separate `serve --no-admin --webhook-endpoints` process per fault, reached only
 * through HARNESS_* variables), caught by its named check. One Playwright run, one project per
 * fault, one capture receiver on a port picked now: each deployment delivers under its own
 * public path prefix (/f/<fault>), which is how the shared receiver routes deliveries.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from '../server/faults.ts';
import { redact } from '../core/redact.ts';
import { readChecks, readPlaywrightTests } from '../contracts/collect.ts';
import { runContracts } from '../contracts/contracts-step.ts';
import { type ServedDeployment, freePort, serveDashboard } from './serve-process.ts';

const root = new URL('..', import.meta.url).pathname;
export const DASHBOARD_ENDPOINTS = join(root, 'examples/webhook-endpoints.yaml');

/** Webhook faults a dashboard deployment cannot exhibit to the harness, with the reason. */
export const NOT_IN_DASHBOARD_MODE: Record<string, string> = {
  'sla-at-risk-never': 'sla.at_risk needs a clock that can be advanced (admin surface only)',
};

/** One fault's dashboard-mode result, or why the mode cannot show it. */
export type DashboardCell =
  | { caught: boolean; tests: number; evidence?: string }
  | { notRun: string };

/** Fresh secrets for the example file's secret_env variables. */
export function exampleSecrets(): Record<string, string> {
  return Object.fromEntries(
    ['HOOK_ALL_SECRET', 'HOOK_SUBSET_SECRET', 'HOOK_PREFIXED_SECRET', 'HOOK_PLAIN_SECRET'].map(
      (k) => [k, `whsec_${randomBytes(12).toString('base64url')}`],
    ),
  );
}

/** Dashboard-mode results of every webhook fault, by fault name. */
export async function runDashboardDetection(outDir: string): Promise<Map<string, DashboardCell>> {
  mkdirSync(outDir, { recursive: true });
  const faults = FAULTS.filter((f) => f.area === 'webhooks' && !NOT_IN_DASHBOARD_MODE[f.name]);
  const port = await freePort();
  const listen = `http://127.0.0.1:${port}`;
  const secrets = exampleSecrets();
  const served: ServedDeployment[] = [];
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
    const matrixFile = join(outDir, 'dashboard-matrix-projects.json');
    writeFileSync(
      matrixFile,
      JSON.stringify(
        faults.map((f, i) => ({
          fault: f.name,
          check: f.check,
          env: { ...served[i]!.vars, ...secrets },
        })),
      ),
      { mode: 0o600 },
    );
    const run = join(outDir, 'dashboard-run');
    const json = join(outDir, 'dashboard-playwright.json');
    await runContracts(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...secrets,
        HARNESS_DASHBOARD_MATRIX: matrixFile,
        HARNESS_RECORD_ONLY: '1',
        HARNESS_WORKERS: process.env.HARNESS_WORKERS ?? '4',
        HARNESS_WEBHOOK_URL: listen,
        HARNESS_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
        HARNESS_WEBHOOK_ENDPOINTS: DASHBOARD_ENDPOINTS,
        HARNESS_WEBHOOK_RETRY_WAIT_MS: '5000',
        HARNESS_OUT_DIR: run,
        PLAYWRIGHT_JSON_OUTPUT_NAME: json,
        FORCE_COLOR: '0',
      },
      10 * 60_000,
      [],
      false,
    );
    const tests = readPlaywrightTests(json);
    const results = readChecks(run);
    const cells = new Map<string, DashboardCell>(
      Object.entries(NOT_IN_DASHBOARD_MODE).map(([fault, notRun]) => [fault, { notRun }]),
    );
    for (const f of faults) {
      const project = `dashboard:${f.name}`;
      const hit = results.find((r) => r.project === project && r.check === f.check && !r.passed);
      cells.set(f.name, {
        caught: Boolean(hit),
        tests: tests.filter((t) => t.project === project && t.status !== 'skipped').length,
        ...(hit?.failure
          ? {
              evidence: redact(
                `Received: ${hit.failure.received} / Expected: ${hit.failure.expected}`,
              ),
            }
          : {}),
      });
    }
    return cells;
  } finally {
    await Promise.all(served.map((s) => s.stop()));
  }
}
