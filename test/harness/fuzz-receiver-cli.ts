/**
 * `harness fuzz receiver …` as a user runs it against their own webhook receiver: a separate
 * process whose only secret is the HOOK_SECRET variable (the tests pass `--secret-env HOOK_SECRET`),
 * so what it prints and writes can be searched for that secret.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Runs the receiver fuzz with `args`, HOOK_SECRET set to `secret`; its exit code, stdout and stderr apart. */
export function fuzzReceiverCli(
  args: string[],
  secret: string,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'run/main.ts'), 'fuzz', 'receiver', ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, HOOK_SECRET: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, out, err }));
  });
}
