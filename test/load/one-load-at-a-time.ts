/**
 * One load measurement at a time across the test files of this checkout. `npm test` runs two
 * test files at once; two load runs on a 2-core machine would each measure the other's CPU use
 * (k6, the Node driver and the deployment all compete), which is noise we make ourselves.
 * Measurements of one process share the lock (a file may run a few on purpose, in batches);
 * another process waits until none of this process's is running. The lock is a directory in
 * the temp dir named after the checkout, holding the owner's pid: a lock whose owner died is
 * taken over.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** HARNESS_LOAD_LOCK: another lock path (the lock's own test). */
const LOCK =
  process.env.HARNESS_LOAD_LOCK ??
  join(
    tmpdir(),
    `harness-load-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`,
  );

function ownerAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    // Created but not yet written (or just removed): alive unless it stays that way.
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function takeLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!ownerAlive()) rmSync(LOCK, { recursive: true, force: true });
    else await sleep(200);
  }
}

const dropLock = () => rmSync(LOCK, { recursive: true, force: true });
let holders = 0;
let taken: Promise<void> | undefined;

export async function oneLoadAtATime<T>(measure: () => Promise<T>): Promise<T> {
  for (;;) {
    taken ??= takeLock().then(() => {
      process.once('exit', dropLock);
    });
    const t = taken;
    await t;
    // Released by the last holder while this call was waiting for its turn: take it anew.
    if (taken === t) break;
  }
  holders += 1;
  try {
    return await measure();
  } finally {
    holders -= 1;
    if (holders === 0) {
      taken = undefined;
      process.off('exit', dropLock);
      dropLock();
    }
  }
}
