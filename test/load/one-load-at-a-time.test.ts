/**
 * The lock that keeps load measurements of different test files apart: two processes never
 * measure at once, measurements of one process share it, and a lock left by a dead process is
 * taken over. Runs on its own lock path (HARNESS_LOAD_LOCK), so it never waits for real
 * measurements.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'load-lock-test-'));
const lock = join(dir, 'lock');
after(() => rmSync(dir, { recursive: true, force: true }));
const lib = fileURLToPath(new URL('./one-load-at-a-time.ts', import.meta.url));

/** A process that holds the lock for `n` overlapping measurements of `ms` each; prints spans. */
function holder(n: number, ms: number): Promise<Array<[number, number]>> {
  const code = `
    import { oneLoadAtATime } from ${JSON.stringify(lib)};
    const spans = await Promise.all(Array.from({ length: ${n} }, () => oneLoadAtATime(async () => {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, ${ms}));
      return [start, Date.now()];
    })));
    console.log(JSON.stringify(spans));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env: { ...process.env, HARNESS_LOAD_LOCK: lock },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (c) => (c === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${c}`))));
  });
}

test('two processes never measure at once; one process measures side by side', async () => {
  const [a, b] = await Promise.all([holder(2, 400), holder(2, 400)]);
  const span = (s: Array<[number, number]>): [number, number] => [
    Math.min(...s.map((x) => x[0])),
    Math.max(...s.map((x) => x[1])),
  ];
  const [sa, sb] = [span(a!), span(b!)];
  assert.ok(sa[1] <= sb[0] || sb[1] <= sa[0], `overlap: ${sa} and ${sb}`);
  // Within a process both measurements ran together (~400 ms, not ~800 ms).
  for (const s of [a!, b!]) assert.ok(Math.abs(s[0]![0] - s[1]![0]) < 300, JSON.stringify(s));
});

test('a lock left by a process that died is taken over', async () => {
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  mkdirSync(lock);
  writeFileSync(join(lock, 'pid'), dead.stdout.toString());
  const spans = await holder(1, 10);
  assert.equal(spans.length, 1);
});
