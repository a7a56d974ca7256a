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

/** The kernel's ephemeral port range (outgoing connections take their local ports from it). */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi && lo <= hi) return [lo, hi];
  } catch {
    // Not Linux: the IANA dynamic range is the usual default.
  }
  return [49152, 65535];
}

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port free right now on 127.0.0.1, for a listener that starts later (a deployment must be told
 * the receiver's URL before the receiver listens). Picked at random *below* the ephemeral range:
 * a port from `listen(0)` lies inside it, where any outgoing connection of a busy machine (a
 * parallel test suite makes thousands) may take it as its local port before we listen again.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1000, ephemeralLow - 1);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 in ${low}-${high} after 50 attempts`);
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
  /** Plan of the workspace whose keys are HARNESS_API_KEY / _READONLY_KEY (default team). */
  apiPlan?: 'team' | 'growth';
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
    ...(opts.apiPlan ? ['--api-plan', opts.apiPlan] : []),
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
