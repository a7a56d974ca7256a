/**
 * Where the contract suite's files go. Under `harness run` (and the detection matrix) the harness
 * names the directory (HARNESS_OUT_DIR, usually reports/latest/) and empties it itself. Run alone
 * (`npx playwright test`), the suite writes to reports/playwright/ — emptied at the start, so it
 * holds exactly this run — and leaves reports/latest/, the last harness run's one-page report,
 * whole; the console reporter says where the files are.
 */
import { join, resolve } from 'node:path';
import { prepareOut } from '../core/output-dir.ts';

/** The directory `npx playwright test` alone writes to. */
export const STANDALONE_OUT = join('reports', 'playwright');

export function playwrightOutDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.HARNESS_OUT_DIR ?? STANDALONE_OUT);
}

/** Playwright global setup: a standalone run starts from an empty report directory. */
export default async function emptyStandaloneOut(): Promise<void> {
  if (process.env.HARNESS_PLAYWRIGHT_CHILD) return;
  prepareOut(playwrightOutDir());
}
