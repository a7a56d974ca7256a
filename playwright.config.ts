/**
 * The contract suite. `npx playwright test` runs it against HARNESS_BASE_URL, or — unset —
 * against an embedded reference deployment per worker. Its configuration is read once: by the
 * harness that runs it (`harness run`, `harness detect`: the file named by
 * HARNESS_RESOLVED_CONFIG, with the output directory and, for the detection matrix, one project
 * per fault), or, run alone, by its global setup (contracts/global-setup.ts). Its files go to the
 * harness's directory (reports/latest/), else to reports/playwright/, emptied at the start of each
 * run (contracts/playwright-output.ts). The console shows one short line per test; check tags are
 * in the HTML, JUnit and JSON reports (HARNESS_CONSOLE_TAGS=1 shows them on the console too).
 */
import { defineConfig } from '@playwright/test';
import { playwrightOutDir } from './contracts/playwright-output.ts';
import { envVar } from './core/variables.ts';
import { readResolved } from './core/resolved-config.ts';
import type { StartEmbedded } from './core/target/resolve-target.ts';
import { startService } from './server/start.ts';

const suite = readResolved()?.suite;
const out = playwrightOutDir(suite);

export default defineConfig<
  object,
  { faults: string[]; configFile?: string; reference: { start?: StartEmbedded } }
>({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  globalSetup: ['./contracts/playwright-output.ts', './contracts/global-setup.ts'],
  fullyParallel: true,
  workers: Number(envVar('HARNESS_WORKERS') ?? 2),
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  outputDir: `${out}/test-results`,
  reporter: [
    // First: from the suite's end on, a stop (SIGINT) no longer loses the files below.
    ['./contracts/reports-outlive-stop.ts'],
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
  // The detection matrix (run/detection*.ts): one project per fault, the whole suite (or its
  // testMatch), so a check that fails for another rule's fault is seen. Each fault in one worker,
  // the faults side by side: a worker (and its embedded deployment) starts once per fault, not
  // once per fault and worker — most of the matrix's CPU was those starts.
  projects: suite?.projects
    ? suite.projects.map((p) => ({
        name: p.name,
        workers: 1,
        use: { faults: p.faults ?? [], configFile: p.configFile },
        ...(p.testMatch ? { testMatch: p.testMatch } : {}),
        metadata: { fault: p.fault, check: p.check },
      }))
    : [{ name: 'contracts' }],
});
