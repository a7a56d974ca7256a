/**
 * Children end with the harness even when they cannot listen: a child and its
 * grandchild that ignore SIGINT and SIGTERM and spin — as a Playwright worker blocked in a regex
 * does — end at the group SIGKILL after the grace (core/process/process-group.ts); and when the
 * process that started them is itself SIGKILLed, alone or with its whole process group, the reaper
 * (core/process/reaper.ts) ends them. Processes are checked in /proc, by pid and start time.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessGroup } from '../../core/process/process-group.ts';
import { REAPER_SCRIPT } from '../../core/process/reaper.ts';

const root = join(import.meta.dirname, '..', '..');

/** Ignores the polite signals and spins; first starts a grandchild that does the same. */
const BUSY = `
process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {});
const spin = "process.on('SIGINT',()=>{});process.on('SIGTERM',()=>{});for(;;){}";
const g = require('node:child_process').spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
process.stdout.write('ready ' + process.pid + ' ' + g.pid + '\\n');
setTimeout(() => { for (;;) {} }, 100);
`;

/** A process that is there and not a zombie (a zombie has ended; init reaps it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function goneWithin(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  while (Date.now() < until && pids.some(alive)) await sleep(50);
  return pids.filter(alive);
}

/** The pids a process prints on its `ready` line. */
function readyPids(c: ChildProcess): Promise<number[]> {
  let out = '';
  return new Promise((resolve, reject) => {
    c.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /ready ([\d ]+)\n/.exec(out);
      if (m) resolve(m[1]!.trim().split(' ').map(Number));
    });
    c.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${out}`)));
  });
}

const leftovers: number[] = [];
after(() => {
  for (const p of leftovers.filter(alive)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('a child group that ignores signals and spins', { timeout: 60_000 }, () => {
  test('ends, grandchild included, at the SIGKILL after the grace', async () => {
    const g = new ProcessGroup(process.execPath, ['-e', BUSY], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pids = await readyPids(g.child);
    leftovers.push(...pids);
    assert.equal(pids.length, 2);
    await sleep(200); // both spinning now
    const t0 = Date.now();
    await g.stop(500);
    assert.deepEqual(await goneWithin(pids, 5_000), [], 'child and grandchild ended');
    assert.ok(Date.now() - t0 >= 400, 'the graceful signal came first, then the grace');
  });
});

describe('the process that started them is SIGKILLed', { timeout: 60_000 }, () => {
  /** A harness-like parent: starts a spinning group through ProcessGroup, prints every pid. */
  const PARENT = `
import { ProcessGroup } from ${JSON.stringify(join(root, 'core/process/process-group.ts'))};
import { reaperPid } from ${JSON.stringify(join(root, 'core/process/reaper.ts'))};
const g = new ProcessGroup(process.execPath, ['-e', ${JSON.stringify(BUSY)}], { stdio: ['ignore', 'pipe', 'ignore'] });
g.child.stdout.on('data', (b) => {
  const [, child, grandchild] = /ready (\\d+) (\\d+)/.exec(b.toString());
  process.stdout.write('ready ' + process.pid + ' ' + reaperPid() + ' ' + child + ' ' + grandchild + '\\n');
});
setInterval(() => {}, 1000);
`;

  for (const how of ['alone', 'with its whole process group'] as const) {
    test(`${how}: the reaper ends the group, then itself`, async () => {
      const parent = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', PARENT],
        { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      leftovers.push(parent.pid!);
      const pids = await readyPids(parent);
      leftovers.push(...pids);
      const [parentPid, reaper, child, grandchild] = pids as [number, number, number, number];
      assert.ok(alive(reaper) && alive(child) && alive(grandchild));
      await sleep(200);
      process.kill(how === 'alone' ? parentPid : -parentPid, 'SIGKILL');
      assert.deepEqual(await goneWithin([parentPid, child, grandchild, reaper], 5_000), []);
    });
  }
});

describe('the reaper script', () => {
  test('kills the groups still listed at end-of-file, never one released', async () => {
    const sleeper = () =>
      spawn('sleep', ['30'], { detached: true, stdio: 'ignore' }) as ChildProcess & { pid: number };
    const [kept, killed] = [sleeper(), sleeper()];
    leftovers.push(kept.pid, killed.pid);
    const reaper = spawn('sh', ['-c', REAPER_SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'] });
    reaper.stdin!.end(`+${kept.pid}\n+${killed.pid}\n+junk\n-${kept.pid}\n`);
    await new Promise((r) => reaper.once('exit', r));
    assert.deepEqual(await goneWithin([killed.pid], 2_000), [], 'the listed group was killed');
    assert.ok(alive(kept.pid), 'the released group was left alone');
    kept.kill('SIGKILL');
  });
});
