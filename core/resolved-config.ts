/**
 * The configuration one invocation resolved (`loadConfig`), handed to its child processes — the
 * Playwright runner and its workers, the detection matrix's runs — as one JSON file named by
 * HARNESS_RESOLVED_CONFIG, so no child parses the environment again. The file is 0600 in a 0700
 * directory of its own (never under reports/, which CI publishes): it holds the secrets, which
 * therefore never travel in argv. Reading it registers them for redaction under their names.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HarnessConfig, registerConfigSecrets } from './config.ts';
import { envVar } from './variables.ts';

/** What the harness tells the contract suite it runs, beside the configuration. */
export interface SuiteRun {
  /** Where the suite writes (the harness empties it) and the id its objects are tagged with. */
  outDir: string;
  runId: string;
  /** Each test's check tags on the console too (`harness run --tags`). */
  tags?: boolean;
  /** Verdicts are recorded, never thrown: a failing check costs no worker restart (detection). */
  recordOnly?: boolean;
  /**
   * One Playwright project per fault (the detection matrix), each running the whole suite in one
   * worker: on the embedded deployment with `faults`, or against the deployment of its own
   * `configFile` (dashboard mode), only the tests of `testMatch`.
   */
  projects?: Array<{
    name: string;
    fault: string;
    check: string;
    faults?: string[];
    configFile?: string;
    testMatch?: string;
  }>;
}

/** What the suite's global setup hands its workers: the run's shared receiver, the retry probe. */
export interface SuiteShared {
  capture?: { control: string; listen: string };
  /** The run id every worker tags its objects with (the harness's, or one drawn then). */
  runId?: string;
  retryProbe?: { marker: string; ticketId: string; armedAt: number };
}

export interface Resolved {
  config: HarnessConfig;
  /** Set when the harness runs the suite; absent for `npx playwright test` alone. */
  suite?: SuiteRun;
  shared?: SuiteShared;
}

/** Writes `r` to a fresh private file; `remove()` deletes it and its directory. */
export function writeResolved(r: Resolved): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'harness-config-'));
  const file = join(dir, 'resolved-config.json');
  writeFileSync(file, JSON.stringify(r), { mode: 0o600 });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Replaces the content of a resolved file (the global setup adds what it shares). */
export function rewriteResolved(file: string, r: Resolved): void {
  writeFileSync(file, JSON.stringify(r), { mode: 0o600 });
}

/** The resolved configuration in `file` (default: HARNESS_RESOLVED_CONFIG), its secrets registered. */
export function readResolved(
  file: string | undefined = envVar('HARNESS_RESOLVED_CONFIG'),
): Resolved | undefined {
  if (!file) return undefined;
  const r = JSON.parse(readFileSync(file, 'utf8')) as Resolved;
  registerConfigSecrets(r.config);
  return r;
}
