/**
 * Where the contract suite's files go. Under `harness run` (and the detection matrix) the harness
 * names the directory (usually reports/latest/) and empties it itself. Run alone
 * (`npx playwright test`), the suite writes to HARNESS_OUT_DIR, by default reports/playwright/ —
 * emptied at the start, so it holds exactly this run — and leaves reports/latest/, the last
 * harness run's one-page report, whole; the console reporter says where the files are.
 */
import { join, resolve } from 'node:path';
import { envVar } from '../core/variables.ts';
import { prepareOut } from '../core/output-dir.ts';
import { readResolved, type SuiteRun } from '../core/resolved-config.ts';

/** The directory `npx playwright test` alone writes to. */
export const STANDALONE_OUT = join('reports', 'playwright');

/** The suite's directory: the harness's (`suite`), else HARNESS_OUT_DIR, else reports/playwright/. */
export function playwrightOutDir(suite?: Pick<SuiteRun, 'outDir'>): string {
  return resolve(suite?.outDir ?? envVar('HARNESS_OUT_DIR') ?? STANDALONE_OUT);
}

/** Playwright global setup: a standalone run starts from an empty report directory. */
export default async function emptyStandaloneOut(): Promise<void> {
  if (readResolved()?.suite) return;
  prepareOut(playwrightOutDir());
}
