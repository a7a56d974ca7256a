/**
 * One gate run as a user runs it in CI: `harness run --skip load` as its own process, configured by
 * the env file `harness serve` writes and nothing else (only PATH and HOME are inherited), so the
 * tests that pace several runs against one served deployment meet what CI meets.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Runs the gate against `envFile`'s target, writing its reports to `out`; its exit code and output (stdout and stderr). */
export function gateRunFromEnvFile(
  envFile: string,
  out: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(root, 'bin/harness.mjs'), 'run', '--skip', 'load', '--env-file', envFile, '--out', out],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}
