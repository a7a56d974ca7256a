/**
 * A command of the harness (or any node script) run as its own process from the repository root,
 * with exactly the environment the test hands it, and killed if it outlives its time: the tests
 * that reach a deployment only as CI does (its URL and HARNESS_* variables) read its exit code and
 * everything it printed, never hang on it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `node ARGV` in the repository root with only `env`; its exit code and its stdout and stderr
 * interleaved as they came. Past `timeoutMs` it is killed and the promise rejects with the output's
 * tail, labelled `what`.
 */
export function runCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  what = argv.join(' '),
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} timed out after ${timeoutMs} ms:\n${out.slice(-4000)}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
