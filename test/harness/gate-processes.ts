/**
 * Separate processes for the gate tests, as CI meets them: a target (gate-target.ts, or the
 * reference deployment through `harness serve`, run/serve-process.ts) and `harness run` itself, reached only through
 * HARNESS_* variables. Every process started here is stopped by `stopAll`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServe } from '../../run/serve-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started: ChildProcess[] = [];
const dirs: string[] = [];

/**
 * Signals the process group each helper started (the process and what it spawned, e.g. the
 * Playwright child of a harness run), by its id; a group already gone is fine.
 */
function signalGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (c.pid) process.kill(-c.pid, signal);
  } catch {
    // already gone
  }
}

/** Stops every process group these helpers started (SIGTERM, then SIGKILL); removes their report directories. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    started.splice(0).map(async (c) => {
      const exited =
        c.exitCode !== null || c.signalCode !== null
          ? Promise.resolve()
          : new Promise((r) => c.once('exit', r));
      signalGroup(c, 'SIGTERM');
      const t = setTimeout(() => signalGroup(c, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
      signalGroup(c, 'SIGKILL'); // what the leader left behind
    }),
  );
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

function track(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const c = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it stops what it spawned.
    detached: true,
  });
  started.push(c);
  return c;
}

/** Waits until the process's stdout matches every pattern; the matches' first groups. */
function readyOn(c: ChildProcess, patterns: RegExp[], what: string): Promise<string[]> {
  let out = '';
  let err = '';
  c.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not start: ${err}`)), 60_000);
    c.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = patterns.map((p) => p.exec(out)?.[1]);
      if (m.every(Boolean)) {
        clearTimeout(t);
        resolve(m as string[]);
      }
    });
    c.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`${what} exited (${code}): ${err}`));
    });
  });
}

/** A misbehaving target of gate-target.ts; its URL. */
export async function startTarget(
  kind: string,
  opts: string[] = [],
): Promise<{ url: string; process: ChildProcess }> {
  const c = track(['test/harness/gate-target.ts', kind, ...opts], {});
  const [url] = await readyOn(c, [/listening (\S+)/], `gate target ${kind}`);
  return { url: url!, process: c };
}

/**
 * The reference deployment as `npm run serve` starts it: its URL, credentials variables and the
 * env file holding them. `args`: more of serve's options (`--time-scale 10`, `--api-plan growth`).
 */
export async function serveReference(
  faults: string[] = [],
  args: string[] = [],
  /** Its environment beside PATH and HOME (the secrets a `--webhook-endpoints` file names). */
  env: Record<string, string> = {},
): Promise<{ baseUrl: string; vars: Record<string, string>; envFile: string }> {
  const served = await spawnServe(
    [
      // The deployment's own fast retry schedule: the webhook retry check ends in a second.
      '--webhook-retry-delays',
      '100,200,400,800',
      ...(faults.length ? ['--fault', faults.join(',')] : []),
      ...args,
    ],
    { env },
  );
  started.push(served.process);
  return { baseUrl: served.baseUrl, vars: served.vars, envFile: served.envFile };
}

/**
 * `harness ARGS` (any command) as a separate process with exactly `env` (plus PATH and HOME);
 * killed after `limitMs`.
 */
export function runHarnessCommand(
  args: string[],
  env: Record<string, string>,
  limitMs = 110_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const c = track(['run/main.ts', ...args], env);
  let stdout = '';
  let stderr = '';
  c.stdout!.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  c.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const limit = setTimeout(() => signalGroup(c, 'SIGKILL'), limitMs);
  return new Promise((resolve) => {
    c.once('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `harness serve ARGS` as a report tells a user to start it (`npm run serve -- ARGS`), in `cwd`
 * (where its relative paths land); stopped by `stopAll`.
 */
export async function serveAsTold(args: string[], cwd: string): Promise<void> {
  const served = await spawnServe(args, { cwd });
  started.push(served.process);
}

export interface HarnessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The report directory. */
  out: string;
  /** The reports written, by name. */
  wrote: (name: string) => boolean;
  read: (name: string) => string;
}

/**
 * `harness run ARGS` as a separate process with exactly `env` (plus PATH and HOME). `onLine`
 * sees each stderr line as it comes (a test can act on the progress). Killed after `limitMs`:
 * a hang fails the test instead of holding it.
 */
export function runHarness(
  env: Record<string, string>,
  args: string[] = ['--skip', 'load'],
  opts: { onLine?: (line: string) => void; limitMs?: number } = {},
): Promise<HarnessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'harness-gate-'));
  dirs.push(dir);
  const out = join(dir, 'latest');
  const c = track(['run/main.ts', 'run', ...args, '--out', out], env);
  let stdout = '';
  let stderr = '';
  let partial = '';
  c.stdout!.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  c.stderr!.on('data', (b: Buffer) => {
    const s = b.toString();
    stderr += s;
    const lines = (partial + s).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) opts.onLine?.(l);
  });
  const limit = setTimeout(() => signalGroup(c, 'SIGKILL'), opts.limitMs ?? 110_000);
  return new Promise((resolve) => {
    c.once('exit', (code) => {
      clearTimeout(limit);
      resolve({
        code,
        stdout,
        stderr,
        out,
        wrote: (name) => existsSync(join(out, name)),
        read: (name) => readFileSync(join(out, name), 'utf8'),
      });
    });
  });
}

/** A stack frame line (`    at fn (file.ts:1:2)` or `    at file.ts:1:2`). */
export const STACK_FRAME = /^\s+at (?:.*\(.*:\d+:\d+\)|\S+:\d+:\d+)\s*$/m;
