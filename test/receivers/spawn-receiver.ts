/**
 * Runs a receiver program as a separate process on a loopback port it picks itself: the source
 * goes to a temp file, the secret through WEBHOOK_SECRET, the port comes back on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SpawnedReceiver {
  url: string;
  /** What the program wrote to stderr so far (a crash shows here). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function spawnReceiver(
  source: string,
  secret: string,
  path = '/webhook',
): Promise<SpawnedReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-'));
  const file = join(dir, 'receiver.mjs');
  writeFileSync(file, source);
  const child: ChildProcess = spawn(process.execPath, [file], {
    env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`receiver did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\d+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`receiver exited (${code}): ${err}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
