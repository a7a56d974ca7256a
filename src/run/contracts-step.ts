/**
 * Runs the Playwright contract suite as a child process (so its workers, reporters and
 * fixtures behave exactly as under `npx playwright test`), bounded in time.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
        env,
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
