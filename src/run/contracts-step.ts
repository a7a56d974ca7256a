/**
 * The contract area of `harness run`: the Playwright suite as a child process (so its workers,
 * reporters and fixtures behave exactly as under `npx playwright test`), bounded in time, read
 * back into the area summary — with the time limit and a preflight that found no JSON target
 * as failures of their own.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readChecks, readPlaywrightTests, type TestRow } from '../report/collect.ts';
import { type AreaSummary, contractsArea } from '../report/summary.ts';
import type { Preflight } from './preflight.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ContractsRun {
  exitCode: number;
  timedOut: boolean;
  wallMs: number;
}

export function runContracts(
  env: NodeJS.ProcessEnv,
  timeoutMs = 10 * 60_000,
  extraArgs: string[] = [],
  inherit = true,
): Promise<ContractsRun> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [`${root}node_modules/@playwright/test/cli.js`, 'test', ...extraArgs],
      {
        cwd: root,
        // The suite writes into the harness's report directory, which the harness empties itself.
        env: { ...env, HARNESS_PLAYWRIGHT_CHILD: '1' },
        stdio: ['ignore', inherit ? 'inherit' : 'ignore', inherit ? 'inherit' : 'ignore'],
      },
    );
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? 1, timedOut, wallMs: Date.now() - t0 });
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ exitCode: 127, timedOut, wallMs: Date.now() - t0 });
    });
  });
}

export interface ContractsStepOptions {
  env: NodeJS.ProcessEnv;
  out: string;
  runId: string;
  /** The preflight of a real target (undefined: the embedded deployment). */
  preflight?: Preflight;
  baseUrl?: string;
  timeoutMs?: number;
  grep?: string;
  verbose: boolean;
  /** Check tags on every console line of the suite (src/report/playwright-console.ts). */
  tags?: boolean;
}

export async function runContractsStep(
  o: ContractsStepOptions,
): Promise<{ area: AreaSummary; tests: TestRow[] }> {
  const jsonFile = join(o.out, 'playwright.json');
  const timeoutMs = o.timeoutMs ?? 600_000;
  const r = await runContracts(
    {
      ...o.env,
      HARNESS_OUT_DIR: o.out,
      HARNESS_RUN_ID: o.runId,
      PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile,
      FORCE_COLOR: '0',
      ...(o.tags ? { HARNESS_CONSOLE_TAGS: '1' } : {}),
    },
    timeoutMs,
    o.grep ? ['--grep', o.grep] : [],
    o.verbose,
  );
  const tests = readPlaywrightTests(jsonFile);
  const area = contractsArea(readChecks(o.out), tests);
  if (r.timedOut) {
    area.documentedFailures.push({
      check: 'harness.time-limit',
      provenance: 'documented',
      rule: 'The contract suite finishes within its time limit.',
      received: `killed after ${Math.round(r.wallMs / 1000)} s`,
      expected: `at most ${Math.round(timeoutMs / 1000)} s`,
    });
    area.verdict = 'fail';
  }
  const pre = o.preflight;
  if (pre && pre.state !== 'ok') {
    area.headline = `target ${pre.state}: ${pre.detail}. ${area.headline}`;
    // An unreachable or non-JSON target fails the gate by itself, whatever tests managed to run.
    area.documentedFailures.unshift({
      check: 'harness.target-answers',
      provenance: 'documented',
      rule: 'All API traffic is JSON over HTTPS, with standard HTTP status codes.',
      received: `GET /v1/tickets: ${pre.state} (${pre.detail})`,
      expected: 'a JSON answer',
      repro: `curl -i -H 'authorization: Bearer $HARNESS_API_KEY' '${o.baseUrl}/v1/tickets?limit=1'`,
    });
    area.verdict = 'fail';
  }
  area.details = { wallMs: r.wallMs, preflight: pre };
  return { area, tests };
}
