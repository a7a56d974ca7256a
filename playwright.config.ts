/**
 * The contract suite. `npx playwright test` runs it against HARNESS_BASE_URL, or — unset —
 * against an embedded reference deployment per worker. Its files go to HARNESS_OUT_DIR (set by
 * `harness run`: reports/latest/), else to reports/playwright/, emptied at the start of each run
 * (contracts/playwright-output.ts). The console shows one short line per test; check tags are
 * in the HTML, JUnit and JSON reports (HARNESS_CONSOLE_TAGS=1 shows them on the console too).
 *
 * HARNESS_FAULT_MATRIX=1 adds one project per contract/webhook fault of the catalogue (the
 * detection self-test); each runs only the tests tagged with the fault's check.
 */
import { readFileSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { FAULTS } from './server/faults.ts';
import { startService } from './server/start.ts';
import { playwrightOutDir } from './contracts/playwright-output.ts';
import type { StartEmbedded } from './core/target/resolve-target.ts';

const out = playwrightOutDir();
// The workers (and contracts/fixtures.ts's raw files) write where the reporters do.
process.env.HARNESS_OUT_DIR = out;
const matrix = process.env.HARNESS_FAULT_MATRIX === '1';
// Dashboard-mode detection (run/detection-dashboard.ts): one project per fault, each against
// its own separately started deployment, all sharing the run's one capture receiver by path.
const dashboardMatrix = process.env.HARNESS_DASHBOARD_MATRIX
  ? (JSON.parse(readFileSync(process.env.HARNESS_DASHBOARD_MATRIX, 'utf8')) as Array<{
      fault: string;
      check: string;
      env: Record<string, string>;
    }>)
  : undefined;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig<
  object,
  { faults: string[]; targetEnv: Record<string, string>; reference: { start?: StartEmbedded } }
>({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  globalSetup: ['./contracts/playwright-output.ts', './contracts/global-setup.ts'],
  fullyParallel: true,
  workers: process.env.HARNESS_WORKERS ? Number(process.env.HARNESS_WORKERS) : 2,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  outputDir: `${out}/test-results`,
  reporter: [
    ['./contracts/playwright-console.ts', { outDir: out }],
    ['html', { outputFolder: `${out}/playwright-html`, open: 'never' }],
    ['junit', { outputFile: `${out}/junit-contracts.xml` }],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? `${out}/playwright.json` }],
  ],
  use: {
    extraHTTPHeaders: { 'user-agent': 'support-ticketing-harness/0.1' },
    // The workers start the embedded deployment with server/start.ts (contracts/ imports no server/).
    reference: { start: startService },
  },
  projects: dashboardMatrix
    ? dashboardMatrix.map((p) => ({
        name: `dashboard:${p.fault}`,
        use: { targetEnv: p.env },
        testMatch: '**/webhooks.spec.ts',
        grep: new RegExp(`@${esc(p.check)}\\b`),
        metadata: { fault: p.fault, check: p.check },
      }))
    : matrix
      ? FAULTS.filter((f) => f.area !== 'limits').map((f) => ({
          name: `fault:${f.name}`,
          use: { faults: [f.name] },
          grep: new RegExp(`@${esc(f.check)}\\b`),
          metadata: { fault: f.name, check: f.check },
        }))
      : [{ name: 'contracts' }],
});
