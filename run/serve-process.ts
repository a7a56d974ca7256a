/**
 * Starts `harness serve` (run/commands/serve.ts) as a separate process and reads back what a user
 * would: its base URL and the credentials files it writes (from its one machine-readable line).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvFile } from '../core/config.ts';
import { ProcessGroup } from '../core/process/process-group.ts';

const root = new URL('..', import.meta.url).pathname;

export interface ServedDeployment {
  baseUrl: string;
  /** The variables of the credentials env file serve wrote (keys, webhook URL, secrets). */
  vars: Record<string, string>;
  /** That env file (`npm start -- --env-file FILE`) and its JSON twin (every workspace's keys). */
  envFile: string;
  credentialsFile: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `harness serve ARGS` as its own process — the one way a test or the detection matrix starts the
 * reference deployment out of process (in process: server/start.ts) — ready when it prints its
 * `--ready-line`. `env` is its whole environment beside PATH and HOME. It runs in a process group
 * of its own (process-group.ts): an interrupted run, or the reaper when this process dies, ends it.
 */
export async function spawnServe(
  args: string[],
  o: { env?: Record<string, string>; cwd?: string } = {},
): Promise<ServedDeployment> {
  const group = new ProcessGroup(
    process.execPath,
    // tsx by its resolved location: `--import tsx` resolves from the cwd, which may be elsewhere.
    [
      '--import',
      import.meta.resolve('tsx'),
      join(root, 'run/main.ts'),
      'serve',
      '--port',
      '0',
      '--ready-line',
      ...args,
    ],
    {
      // Where relative paths of ARGS land (`--env-out FILE`).
      cwd: o.cwd ?? root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const child: ChildProcess = group.child;
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const ready = await new Promise<{ baseUrl: string; envFile: string; credentialsFile: string }>(
    (resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{"baseUrl"'));
        if (line) {
          clearTimeout(t);
          resolve(JSON.parse(line));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`serve exited (${code}): ${err}`));
      });
    },
  );
  return {
    ...ready,
    vars: parseEnvFile(readFileSync(ready.envFile, 'utf8')),
    process: child,
    // Pending webhook retries may hold the graceful close; the process is ours to end.
    stop: () => group.stop(3000),
  };
}

/** A reference deployment in dashboard mode: no admin surface, webhook endpoints from a file. */
export function serveDashboard(opts: {
  endpointsFile: string;
  webhookUrl: string;
  faults?: string[];
  /** Readings of the docs' gaps (server/readings/). */
  readings?: string[];
  env?: Record<string, string>;
  /** Plan of the workspace whose keys are HARNESS_API_KEY / _READONLY_KEY (default team). */
  apiPlan?: 'team' | 'growth';
}): Promise<ServedDeployment> {
  return spawnServe(
    [
      '--no-admin',
      '--webhook-endpoints',
      opts.endpointsFile,
      '--webhook-url',
      opts.webhookUrl,
      // The deployment's own (fast) retry policy, so the retry check ends in well under a second.
      '--webhook-retry-delays',
      '100,200,400,800',
      ...(opts.faults?.length ? ['--fault', opts.faults.join(',')] : []),
      ...(opts.readings?.length ? ['--reading', opts.readings.join(',')] : []),
      ...(opts.apiPlan ? ['--api-plan', opts.apiPlan] : []),
    ],
    { env: opts.env },
  );
}
