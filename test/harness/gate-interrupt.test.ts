/**
 * A gate killed from outside leaves nothing behind and still reports: `harness run` is
 * started as CI starts it — its own process group, through bin/harness.mjs or `npm start` — and
 * signalled at a moment read from its output, never after a sleep: mid-contracts (the first test
 * line), mid-fuzz (the fuzz area's line) and mid-load with k6 (a k6 process among its
 * descendants). Its descendants and their process groups are recorded from /proc just before the
 * kill; 10 s later none of them may run. A signalled run writes every report with verdict ERROR,
 * exit 2, "interrupted by SIG…", and what was found before the signal; a SIGKILLed one writes
 * nothing, but its children still end (the reaper); the run's time limit ends them the same way.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { findK6 } from '../../load/k6-engine.ts';
import type { Summary } from '../../report/summary.ts';
import { serveReference, startTarget, stopAll } from './gate-processes.ts';
import { descendants, type Proc, survivors } from './proc-tree.ts';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const gates: ChildProcess[] = [];

after(async () => {
  // A failed assertion must not leave its gate running.
  for (const g of gates)
    try {
      if (g.pid) process.kill(-g.pid, 'SIGKILL');
    } catch {
      // gone
    }
  await stopAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The first contract test line (contracts/playwright-console.ts) on stdout. */
const FIRST_TEST = /^\s+[✓✘!-]\s+1 /m;

interface Gate {
  process: ChildProcess;
  out: string;
  /** Resolves when stdout or stderr so far matches. */
  seen(re: RegExp): Promise<void>;
  exited: Promise<number | null>;
  output(): string;
}

function startGate(
  how: 'bin' | 'npm start' | 'npx',
  args: string[],
  env: Record<string, string> = {},
): Gate {
  const dir = mkdtempSync(join(tmpdir(), 'harness-interrupt-'));
  dirs.push(dir);
  const out = join(dir, 'latest');
  const [cmd, argv] =
    how === 'npm start'
      ? ['npm', ['start', '--', ...args, '--out', out]]
      : how === 'npx'
        ? ['npx', ['harness', 'run', ...args, '--out', out]]
        : [process.execPath, [join(root, 'bin/harness.mjs'), '--', 'run', ...args, '--out', out]];
  const c = spawn(cmd, argv, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // As CI runs it: a process group of its own, which the test may signal as a whole.
    detached: true,
  });
  gates.push(c);
  let text = '';
  const waiters: Array<() => void> = [];
  const onData = (b: Buffer) => {
    text += b.toString();
    for (const w of waiters) w();
  };
  c.stdout!.on('data', onData);
  c.stderr!.on('data', onData);
  const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
  return {
    process: c,
    out,
    output: () => text,
    exited,
    seen: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (re.test(text)) resolve();
        };
        waiters.push(check);
        check();
        void exited.then(() => reject(new Error(`the gate ended before ${re}:\n${text}`)));
      }),
  };
}

/** Sends `signal`, waits for the gate to exit, then up to 10 s for all of `recorded` to end. */
async function killAndWatch(
  g: Gate,
  recorded: Proc[],
  signal: NodeJS.Signals,
  to: 'process' | 'group',
): Promise<{ code: number | null; left: Proc[] }> {
  const t0 = Date.now();
  process.kill(to === 'group' ? -g.process.pid! : g.process.pid!, signal);
  const code = await Promise.race([g.exited, sleep(10_000).then(() => 'hung' as const)]);
  assert.notEqual(code, 'hung', `the gate did not exit within 10 s of ${signal}:\n${g.output()}`);
  let left = survivors(recorded);
  while (left.length && Date.now() - t0 < 10_000) {
    await sleep(100);
    left = survivors(recorded);
  }
  return { code: code as number | null, left };
}

/** The gate's descendants now, with the tree's shape asserted (these are what must end). */
function record(g: Gate, expect: RegExp[]): Proc[] {
  const procs = descendants(g.process.pid!);
  for (const re of expect)
    assert.ok(
      procs.some((p) => re.test(p.cmd)),
      `a ${re} process runs before the kill:\n${procs.map((p) => p.cmd).join('\n')}`,
    );
  return procs;
}

function assertInterrupted(
  g: Gate,
  signal: string,
  area: string,
  reason = `interrupted by ${signal}`,
): Summary {
  for (const f of ['summary.json', 'junit.xml', 'index.html', 'snapshot.json'])
    assert.ok(existsSync(join(g.out, f)), `${f} written\n${g.output()}`);
  const s = JSON.parse(readFileSync(join(g.out, 'summary.json'), 'utf8')) as Summary;
  assert.equal(s.verdict, 'error');
  assert.equal(s.exitCode, 2);
  assert.equal(s.interrupted, reason);
  assert.ok(s.areas[area]?.error?.startsWith(`stopped: ${reason}`), s.areas[area]?.error);
  assert.ok(readFileSync(join(g.out, 'junit.xml'), 'utf8').includes(reason), 'junit.xml says so');
  const verdict = /^verdict: .*$/m.exec(g.output())?.[0] ?? g.output();
  assert.match(verdict, /^verdict: ERROR \(exit 2\) /);
  assert.ok(verdict.includes(reason), verdict);
  return s;
}

const PLAYWRIGHT = [/@playwright\/test\/cli\.js test/, /workerProcessEntry/];
const fmt = (ps: Proc[]) => ps.map((p) => `${p.pid} ${p.cmd}`).join('\n');

describe('a gate signalled mid-contracts ends every process and reports "interrupted"', {
  timeout: 240_000,
}, () => {
  test('SIGTERM to the harness process (CI timeout, kill)', async () => {
    const g = startGate('bin', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, PLAYWRIGHT);
    const { code, left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2);
    const s = assertInterrupted(g, 'SIGTERM', 'contracts');
    // What the suite found before the signal is kept.
    assert.ok(
      s.checks.some((c) => c.passed + c.failed > 0),
      'checks judged before the signal are reported',
    );
    assert.match(s.areas.fuzz?.error ?? '', /^not run: interrupted by SIGTERM/);
  });

  test('SIGINT to the whole process group (Ctrl-C in a terminal)', async () => {
    const g = startGate('bin', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, PLAYWRIGHT);
    const { code, left } = await killAndWatch(g, recorded, 'SIGINT', 'group');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2);
    assertInterrupted(g, 'SIGINT', 'contracts');
  });

  test('SIGTERM to npm (npm start under CI)', async () => {
    const g = startGate('npm start', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, [/^npm start/, ...PLAYWRIGHT]);
    const { code, left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2, 'npm passes on the harness’s exit status');
    assertInterrupted(g, 'SIGTERM', 'contracts');
  });

  test('SIGINT to npm start’s whole group (Ctrl-C on npm start): npm’s echo is the same signal', async () => {
    const g = startGate('npm start', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, [/^npm start/, ...PLAYWRIGHT]);
    const { code, left } = await killAndWatch(g, recorded, 'SIGINT', 'group');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2);
    assertInterrupted(g, 'SIGINT', 'contracts');
    assert.doesNotMatch(
      g.output(),
      /SIGINT again/,
      'npm forwarding the same Ctrl-C is not a second one',
    );
  });

  test('SIGTERM to npx (npx harness run): its shell dies without passing it on; the harness notices', async () => {
    const g = startGate('npx', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, [/^npm exec harness/, /bin\/harness run/, ...PLAYWRIGHT]);
    const { left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    // npx ended at once; the harness, orphaned, stopped on its own and reported (its output
    // went to the pipe npx handed it, still read here).
    assertInterrupted(
      g,
      'SIGTERM',
      'contracts',
      'interrupted: the npm/npx process that started it is gone',
    );
  });

  test('SIGKILL to the harness process: no report, but its children still end', async () => {
    const g = startGate('bin', ['--skip', 'load']);
    await g.seen(FIRST_TEST);
    const recorded = record(g, PLAYWRIGHT);
    const { left } = await killAndWatch(g, recorded, 'SIGKILL', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
  });

  test('the run’s time limit ends them the same way', async () => {
    // A slow staging (every answer 0.5 s late) whose suite cannot finish in 25 s, so the limit
    // falls while Playwright runs; every process the gate had at any moment is recorded.
    const ref = await serveReference();
    const slow = await startTarget('proxy', ['--upstream', ref.baseUrl, '--delay-ms', '500']);
    const g = startGate('bin', ['--skip', 'load', '--max-seconds', '25'], {
      ...ref.vars,
      HARNESS_BASE_URL: slow.url,
    });
    const seen = new Map<number, Proc>();
    while (g.process.exitCode === null && g.process.signalCode === null) {
      // The latest sight of each, but not as a zombie nor with an empty command line (an exiting
      // process's is gone before it is a zombie: on a busy machine that sight overwrote
      // Playwright's runner, and the test said Playwright never ran).
      for (const p of descendants(g.process.pid!))
        if (!p.zombie && (p.cmd.trim() || !seen.has(p.pid))) seen.set(p.pid, p);
      await sleep(100);
    }
    const recorded = [...seen.values()];
    assert.ok(
      recorded.some((p) => PLAYWRIGHT[0]!.test(p.cmd)),
      `Playwright ran during the run:\n${fmt(recorded)}\n${g.output().slice(0, 300)}`,
    );
    let left = survivors(recorded);
    for (const until = Date.now() + 10_000; left.length && Date.now() < until; await sleep(100))
      left = survivors(recorded);
    assert.deepEqual(left, [], `left running 10 s after the gate ended:\n${fmt(left)}`);
    const s = JSON.parse(readFileSync(join(g.out, 'summary.json'), 'utf8')) as Summary;
    assert.equal(s.verdict, 'error', g.output());
    assert.match(s.areas.contracts?.error ?? '', /time limit \(--max-seconds .* 25 s\)/);
    assert.equal(await g.exited, 2);
  });
});

describe('a gate signalled mid-fuzz, against a deployment it did not start', {
  timeout: 240_000,
}, () => {
  test('SIGTERM: nothing left, the contract failure found before is kept, verdict ERROR', async () => {
    const ref = await serveReference(['create-status-new']);
    const g = startGate('bin', ['--skip', 'load'], ref.vars);
    await g.seen(/^\[3\/3\] /m);
    const recorded = record(g, []);
    const { code, left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2, 'interrupted: ERROR, even with a documented failure found before');
    const s = assertInterrupted(g, 'SIGTERM', 'fuzz');
    assert.ok(
      s.areas.contracts?.documentedFailures.some((f) => f.check === 'ticket.created-status-open'),
      'the contract area keeps its failure',
    );
    // The deployment the gate did not start is left alone.
    const probe = await fetch(`${ref.baseUrl}/v1/tickets?limit=1`, {
      headers: { authorization: `Bearer ${ref.vars.HARNESS_API_KEY}` },
    });
    assert.equal(probe.status, 200);
  });
});

describe('a gate signalled mid-contracts against a lax, long-lived deployment it did not start', {
  timeout: 240_000,
}, () => {
  // A long-lived staging: thousands of old tickets (300 KB one-word subjects, 2 000-tag lists, NUL,
  // RTL) on every list page, and a deployment that keeps what it does not validate. There the
  // Playwright workers once blocked their event loops on a list answer and outlived SIGTERM.
  test('SIGTERM after a dozen tests: nothing left within 10 s, every report, verdict ERROR', async () => {
    const ref = await serveReference(
      [],
      ['--reading', 'U26=no-limits,U6=ignore-wrong-types', '--seed-tickets', '2000'],
    );
    const g = startGate('bin', ['--skip', 'load'], ref.vars);
    await g.seen(/^ {2}\S+ 1\d /m);
    const recorded = record(g, PLAYWRIGHT);
    const { code, left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2);
    assertInterrupted(g, 'SIGTERM', 'contracts');
  });
});

const k6 = findK6({ shared: true });
describe('a gate signalled mid-load with k6', { timeout: 240_000 }, () => {
  test('SIGTERM: k6 ends with the gate', { skip: k6 ? false : 'no k6' }, async () => {
    const g = startGate('bin', ['--skip', 'contracts,fuzz'], { K6_BIN: k6!.path });
    await g.seen(/^\[2\/3\] /m);
    // k6 is running once it is among the gate's processes.
    const until = Date.now() + 60_000;
    while (!descendants(g.process.pid!).some((p) => /k6 run/.test(p.cmd))) {
      assert.ok(Date.now() < until, `k6 did not start:\n${g.output()}`);
      await sleep(100);
    }
    const recorded = record(g, [/k6 run/]);
    const { code, left } = await killAndWatch(g, recorded, 'SIGTERM', 'process');
    assert.deepEqual(left, [], `left running 10 s after the kill:\n${fmt(left)}`);
    assert.equal(code, 2);
    assertInterrupted(g, 'SIGTERM', 'load');
  });
});
