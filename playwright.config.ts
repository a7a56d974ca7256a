/**
 * The contract suite. `npx playwright test` runs it against HARNESS_BASE_URL, or — unset —
 * against an embedded reference deployment per worker. Reports go to reports/latest/.
 *
 * HARNESS_FAULT_MATRIX=1 adds one project per contract/webhook fault of the catalogue (the
 * detection self-test); each runs only the tests tagged with the fault's check.
 */
import { defineConfig } from '@playwright/test';
import { FAULTS } from './server/faults.ts';

const out = process.env.HARNESS_OUT_DIR ?? 'reports/latest';
const matrix = process.env.HARNESS_FAULT_MATRIX === '1';
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig<object, { faults: string[] }>({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  globalSetup: './contracts/global-setup.ts',
  fullyParallel: true,
  workers: process.env.HARNESS_WORKERS ? Number(process.env.HARNESS_WORKERS) : 2,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  outputDir: `${out}/test-results`,
  reporter: [
    ['list'],
    ['html', { outputFolder: `${out}/playwright-html`, open: 'never' }],
    ['junit', { outputFile: `${out}/junit-contracts.xml` }],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? `${out}/playwright.json` }],
  ],
  use: { extraHTTPHeaders: { 'user-agent': 'support-ticketing-harness/0.1' } },
  projects: matrix
    ? FAULTS.filter((f) => f.area !== 'limits').map((f) => ({
        name: `fault:${f.name}`,
        use: { faults: [f.name] },
        grep: new RegExp(`@${esc(f.check)}\\b`),
        metadata: { fault: f.name, check: f.check },
      }))
    : [{ name: 'contracts' }],
});
