/**
 * Starts `npm run serve` (server/serve.ts) as a separate process in dashboard mode — no admin
 * surface, webhook endpoints seeded from a file — and reads back what a user would: the base URL
 * it prints and the credentials env file it writes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { parseEnvFile } from '../config.ts';

const root = new URL('../..', import.meta.url).pathname;

/** A port free right now on 127.0.0.1 (picked at run time: other runs share this machine). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface ServedDeployment {
  baseUrl: string;
  /** The variables of the credentials env file serve wrote (keys, webhook URL, secrets). */
  vars: Record<string, string>;
  stop(): Promise<void>;
}

export async function serveDashboard(opts: {
  endpointsFile: string;
  webhookUrl: string;
  faults?: string[];
  env?: Record<string, string>;
}): Promise<ServedDeployment> {
  const args = [
    '--import',
    'tsx',
    join(root, 'server/serve.ts'),
    '--port',
    '0',
    '--no-admin',
    '--webhook-endpoints',
    opts.endpointsFile,
    '--webhook-url',
    opts.webhookUrl,
    // The deployment's own (fast) retry policy, so the retry check ends in well under a second.
    '--webhook-retry-delays',
    '100,200,400,800',
    ...(opts.faults?.length ? ['--fault', opts.faults.join(',')] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const ready = await new Promise<{ baseUrl: string; json: string }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const json = /Seeded credentials \(mode 0600\): (\S+)/.exec(out)?.[1];
      if (url && json) {
        clearTimeout(t);
        resolve({ baseUrl: url, json });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`serve exited (${code}): ${err}`));
    });
  });
  const vars = parseEnvFile(readFileSync(join(dirname(ready.json), 'credentials.env'), 'utf8'));
  return {
    baseUrl: ready.baseUrl,
    vars,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // Pending webhook retries may hold the graceful close; the process is ours to end.
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
