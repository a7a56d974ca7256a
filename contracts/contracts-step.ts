/**
 * The contract area of `harness run`: the Playwright suite as a child process (so its workers,
 * reporters and fixtures behave exactly as under `npx playwright test`), bounded in time, read
 * back into the area summary. Two things stop it early, both as verdict `error` with what was
 * found before kept: the time limit (the suite's own, or what is left of the run's), and the
 * target stopping answering mid-run (the workers' pulse, contracts/transport-pulse.ts) — then
 * the failures that were only the outage are set aside, never reported as broken rules.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { HarnessConfig } from '../core/config.ts';
import { ProcessGroup } from '../core/process/process-group.ts';
import { type Resolved, writeResolved } from '../core/resolved-config.ts';
import { PULSE_FILE, PulseWatch, type TargetDown } from './transport-pulse.ts';
import { readText } from '../core/http/read-tally.ts';
import { readChecks, readPlaywrightTests, readReads, type TestRow } from './collect.ts';
import { type AreaSummary, errorArea } from '../core/area.ts';
import { contractsArea } from './contracts-area.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface ContractsRun {
  exitCode: number;
  timedOut: boolean;
  /** Set when the workers' pulse said the target stopped answering (the suite was stopped). */
  targetDown?: TargetDown;
  /** Why `signal` stopped the suite (e.g. "interrupted by SIGTERM"). */
  interrupted?: string;
  wallMs: number;
}

/** The suite's own time limit unless told otherwise, ms. */
export const CONTRACTS_TIMEOUT_MS = 10 * 60_000;

/** Grace after SIGINT (Playwright stops, tears down, writes its reports) before SIGKILL. */
export const STOP_GRACE_MS = 15_000;
/** The same after an interrupt: the user or CI wants the run over in seconds. */
const INTERRUPT_GRACE_MS = 2_000;

export interface RunContractsOptions {
  /** The child's environment (default this process's); its configuration comes from `resolved`. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  args?: string[];
  /** Show the suite's console output. Default true. */
  inherit?: boolean;
  /** The workers' pulse file to watch (stop when the target stops answering). */
  pulseFile?: string;
  /** Stops the suite at once (an interrupt); its reason is the run's `interrupted`. */
  signal?: AbortSignal;
}

/**
 * `playwright test` as a child process, handed the configuration this process resolved (and
 * what the suite is run for) in one private file; the file is removed when the suite ends.
 */
export function runContracts(
  resolved: Resolved,
  {
    env = process.env,
    timeoutMs = CONTRACTS_TIMEOUT_MS,
    args = [],
    inherit = true,
    pulseFile,
    signal,
  }: RunContractsOptions = {},
): Promise<ContractsRun> {
  const t0 = Date.now();
  const file = writeResolved(resolved);
  return new Promise((resolve) => {
    // The runner in a group of its own, its workers forked into it: stopping the group stops
    // them too, and a worker that ignores signals (Playwright's do) still ends at the SIGKILL.
    // SIGINT is Playwright's graceful stop: the tests that ran keep their results.
    const group = new ProcessGroup(
      process.execPath,
      [`${root}node_modules/@playwright/test/cli.js`, 'test', ...args],
      {
        cwd: root,
        env: { ...env, HARNESS_RESOLVED_CONFIG: file.file },
        stdio: ['ignore', inherit ? 'inherit' : 'ignore', inherit ? 'inherit' : 'ignore'],
      },
      'SIGINT',
    );
    const child = group.child;
    let timedOut = false;
    let targetDown: TargetDown | undefined;
    let interrupted: string | undefined;
    const stop = () => void group.stop(STOP_GRACE_MS);
    const onAbort = () => {
      interrupted = String(signal?.reason ?? 'interrupted');
      void group.stop(INTERRUPT_GRACE_MS);
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const watch = pulseFile ? new PulseWatch(pulseFile) : undefined;
    const poll = watch
      ? setInterval(() => {
          // Once the suite is being stopped (time limit, interrupt), the requests Playwright cuts
          // short fail without an answer too: that is not the target going down.
          if (timedOut || interrupted) return;
          const down = watch.poll();
          if (down && !targetDown) {
            targetDown = down;
            clearInterval(poll);
            stop();
          }
        }, 200)
      : undefined;
    let exitCode = 1;
    child.on('exit', (code) => {
      exitCode = code ?? 1;
    });
    child.on('error', () => {
      exitCode = 127;
    });
    // Done once the whole group has ended, workers included.
    void group.ended.then(() => {
      // Stopped from outside and not for an interrupt: the run's time limit (its owner stops
      // every group then), which may come a moment before this suite's own timer.
      if (group.stopRequested && !interrupted && !targetDown) timedOut = true;
      clearTimeout(timer);
      clearInterval(poll);
      // The streak may have completed in the suite's last moments, between two polls: its last
      // tests' requests unanswered is the target gone all the same.
      if (watch && !targetDown && !timedOut && !interrupted) targetDown = watch.poll();
      signal?.removeEventListener('abort', onAbort);
      file.remove();
      resolve({ exitCode, timedOut, targetDown, interrupted, wallMs: Date.now() - t0 });
    });
  });
}

export interface ContractsStepOptions {
  cfg: HarnessConfig;
  env: NodeJS.ProcessEnv;
  out: string;
  runId: string;
  timeoutMs?: number;
  /** What the time limit is, for the reason (default: the suite's own limit). */
  limitName?: string;
  grep?: string;
  /**
   * Tests the run leaves out (to fit --max-requests, run/max-requests.ts): not started, each
   * listed as not run with `reason`. `all`: nothing else was selected, so the suite is not started.
   */
  leftOut?: {
    tests: Array<{ file: string; path: string[]; title: string }>;
    reason: string;
    all?: boolean;
  };
  verbose: boolean;
  /** Check tags on every console line of the suite (contracts/playwright-console.ts). */
  tags?: boolean;
  /** The run was interrupted: stop the suite now, keep what it found. */
  signal?: AbortSignal;
}

export interface ContractsStep {
  area: AreaSummary;
  tests: TestRow[];
  /** The check results the reports use (those that were only the outage set aside). */
  results: CheckResult[];
  /** Set when the target stopped answering during the suite. */
  targetDown?: string;
}

/** The tests left out, as rows of the suite's report: skipped, with the reason. */
const leftOutRows = (l: NonNullable<ContractsStepOptions['leftOut']>): TestRow[] =>
  l.tests.map((t) => ({
    title: t.title,
    file: t.file,
    project: '',
    status: 'skipped',
    durationMs: 0,
    reason: l.reason,
    tags: [],
  }));

export async function runContractsStep(o: ContractsStepOptions): Promise<ContractsStep> {
  if (o.leftOut?.all) {
    const tests = leftOutRows(o.leftOut);
    return { area: contractsArea([], tests), tests, results: [] };
  }
  return runContractsSuite(o);
}

/**
 * Playwright's test-list format (`file › describe › test`): the tests it must not start. No
 * contract test's title holds the separator (test/harness/max-requests.test.ts holds the suite
 * to that), so each line names exactly one test.
 */
function invertList(out: string, l: NonNullable<ContractsStepOptions['leftOut']>): string {
  const file = join(out, 'raw', 'left-out.txt');
  mkdirSync(join(out, 'raw'), { recursive: true });
  const lines = l.tests.map((t) => [t.file, ...t.path].join(' › '));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function runContractsSuite(o: ContractsStepOptions): Promise<ContractsStep> {
  const jsonFile = join(o.out, 'playwright.json');
  const timeoutMs = o.timeoutMs ?? CONTRACTS_TIMEOUT_MS;
  const r = await runContracts(
    { config: o.cfg, suite: { outDir: o.out, runId: o.runId, ...(o.tags ? { tags: true } : {}) } },
    {
      env: { ...o.env, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile, FORCE_COLOR: '0' },
      timeoutMs,
      args: [
        ...(o.grep ? ['--grep', o.grep] : []),
        ...(o.leftOut?.tests.length ? ['--test-list-invert', invertList(o.out, o.leftOut)] : []),
      ],
      inherit: o.verbose,
      pulseFile: join(o.out, 'raw', PULSE_FILE),
      signal: o.signal,
    },
  );
  let results = readChecks(o.out);
  let tests = suiteTests(jsonFile, Boolean(r.interrupted || r.timedOut || r.targetDown));
  // What the run left out to fit its request budget is part of the suite's report: not run.
  const listed = tests.length;
  if (o.leftOut) tests.push(...leftOutRows(o.leftOut));
  if (r.interrupted) {
    const why = `not run: ${r.interrupted}`;
    tests = tests.map((t) =>
      (t.status === 'skipped' && !t.reason) || t.status === 'interrupted'
        ? { ...t, status: 'skipped', reason: why }
        : t,
    );
    const area = errorArea(`stopped: ${r.interrupted}`, contractsArea(results, tests));
    area.details = { wallMs: r.wallMs };
    return { area, tests, results };
  }
  if (r.targetDown) {
    const down = r.targetDown;
    const reason = `the target stopped answering: ${down.count} requests in a row got no answer (last: ${down.error})`;
    ({ results, tests } = setAsideOutage(down.since, results, tests));
    const area = errorArea(reason, contractsArea(results, tests));
    area.details = { wallMs: r.wallMs, targetDown: down };
    return { area: withReads(area, o.out), tests, results, targetDown: reason };
  }
  let area = contractsArea(results, tests);
  if (listed === 0 && r.exitCode !== 0 && !r.timedOut)
    area = errorArea(
      `the contract suite did not run (Playwright exited ${r.exitCode}; its error is printed above)`,
    );
  else if (r.timedOut) {
    const why = `stopped at ${o.limitName ?? `the contract suite's time limit (${Math.round(timeoutMs / 1000)} s)`}`;
    tests = tests.map((t) =>
      t.status === 'skipped' && !t.reason ? { ...t, reason: `not run: ${why}` } : t,
    );
    area = errorArea(why, contractsArea(results, tests));
  }
  area.details = { wallMs: r.wallMs };
  return { area: withReads(area, o.out), tests, results };
}

/**
 * The suite's test rows from Playwright's JSON report. A suite the harness stopped (`stopped`:
 * interrupted, out of time, the target down) may have been SIGKILLed while writing it when the
 * stop's grace ran out: a cut-short report then counts as none, and the checks the workers
 * recorded still count. A suite that ended by itself with an unreadable report is an error.
 */
export function suiteTests(jsonFile: string, stopped: boolean): TestRow[] {
  try {
    return readPlaywrightTests(jsonFile);
  } catch (e) {
    if (!stopped) throw e;
    return [];
  }
}

/**
 * The area with how much of the target's data the suite read (list pages and their records, from
 * the workers' raw files): in its details and its headline, so a long-lived staging shows the
 * walks stayed bounded.
 */
function withReads(area: AreaSummary, out: string): AreaSummary {
  const read = readReads(out);
  if (read.pages === 0) return area;
  return {
    ...area,
    headline: `${area.headline} · read from the target: ${readText(read)}`,
    details: { ...(area.details as object), read },
  };
}

/**
 * From `since` on the target answered nothing. A test that did not pass and was still running
 * then reports the outage, not the contract: it is set aside as "not run", and so
 * are its checks that failed from then on, and any check that failed for want of an answer.
 * Everything the target did answer before stays.
 */
export function setAsideOutage(
  since: number,
  results: CheckResult[],
  tests: TestRow[],
): { results: CheckResult[]; tests: TestRow[] } {
  // A test skipped on purpose (needs(…): a missing credential) has a reason and no error.
  const skippedOnPurpose = (t: TestRow) => t.status === 'skipped' && t.reason && !t.error;
  const cut = (t: TestRow) =>
    t.status !== 'passed' &&
    !skippedOnPurpose(t) &&
    (t.startedAt === undefined || t.startedAt + t.durationMs >= since);
  const cutTitles = new Set(tests.filter(cut).map((t) => t.title));
  const outage = (r: CheckResult) =>
    !r.passed &&
    r.failedAt !== undefined &&
    r.failedAt >= since &&
    (r.noAnswer === true || cutTitles.has(r.test));
  return {
    results: results.filter((r) => !outage(r)),
    tests: tests.map((t) =>
      cut(t)
        ? {
            ...t,
            status: 'skipped',
            reason: 'not run to the end: the target stopped answering (see the area)',
          }
        : t,
    ),
  };
}
