/**
 * The k6 the tests run: K6_BIN, else `k6` on PATH, else ../shared/bin/k6 beside the checkout.
 * Every invocation has a hard timeout, so an import that hangs k6's init context (as an empty
 * module once did) fails the test quickly instead of eating CI.
 */
import { spawn } from 'node:child_process';
import { findK6 } from '../../load/k6-engine.ts';

export const K6 = findK6({ shared: true });

/** Printed by every k6 suite when it skips. */
export const NO_K6 =
  'no k6: set K6_BIN, put k6 on PATH, or provide ../shared/bin/k6 — k6 suites skipped';

export interface K6Run {
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export function runK6(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<K6Run> {
  if (!K6) throw new Error(NO_K6);
  return new Promise((resolve, reject) => {
    const child = spawn(K6.path, args, {
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, stdout, stderr });
    });
  });
}
