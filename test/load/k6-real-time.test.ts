/**
 * One k6 run in real time (clock 1×, the full Team schedule, ~95 s): the real-minute path —
 * Retry-After waited out in real seconds, 20 s and 40 s idle periods, S2 over a real 15 s —
 * against the reference deployment started as a separate process (`npm run serve`) and reached
 * only through the HARNESS_* variables a user would set, via `harness load --engine k6`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from '../../load/lib/index.ts';
import { spawnServe } from '../../run/serve-process.ts';
import { K6, NO_K6 } from './k6-binary.ts';

if (!K6) console.log(`# ${NO_K6}`);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules', '.bin', 'tsx');

test('Team in real time under k6, against a deployment run as a separate process', {
  skip: K6 ? false : NO_K6,
  timeout: 240_000,
}, async () => {
  const server = await spawnServe([]);
  // A folder of its own, holding an older run's report: `harness load` empties it first.
  const out = mkdtempSync(join(tmpdir(), 'harness-load-'));
  writeFileSync(join(out, '.harness-output'), 'written by harness run\n');
  writeFileSync(join(out, 'summary.json'), '{}\n');
  try {
    const c = JSON.parse(readFileSync(server.credentialsFile, 'utf8')) as {
      baseUrl: string;
      workspaces: { team: { keys: { full: string; full2: string } } };
    };
    const cli = spawn(
      tsx,
      [
        'run/main.ts',
        'load',
        '--plan',
        'team',
        '--engine',
        'k6',
        '--max-seconds',
        '200',
        '--out',
        out,
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          HARNESS_BASE_URL: c.baseUrl,
          HARNESS_TEAM_KEYS: `${c.workspaces.team.keys.full},${c.workspaces.team.keys.full2}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => (stdout += d));
    cli.stderr.on('data', (d) => (stderr += d));
    const kill = setTimeout(() => cli.kill('SIGKILL'), 220_000);
    const code = await new Promise<number | null>((r) => cli.on('exit', r));
    clearTimeout(kill);
    const line = stdout.split('\n').find((l) => l.startsWith('team'));
    assert.ok(line, `no summary line: ${stdout}\n${stderr}`);
    assert.match(line, /\[k6, \d+ s\]/);
    assert.equal(code, 0, `${stdout}\n${stderr}`);
    assert.match(line, /token-bucket · Reset epoch-s · scope per-key · pass/);
    // The keys never reach the console.
    for (const k of [c.workspaces.team.keys.full, c.workspaces.team.keys.full2])
      assert.ok(!stdout.includes(k) && !stderr.includes(k), 'a key was printed');
    assert.ok(stdout.includes(`reports in ${out}/: load-team.json, load-team.svg`), stdout);
    assert.ok(!existsSync(join(out, 'summary.json')), 'the older run’s report is gone');
    assert.deepEqual(readdirSync(out).sort(), [
      '.harness-output',
      'load-team.json',
      'load-team.svg',
    ]);
    const r = JSON.parse(readFileSync(join(out, 'load-team.json'), 'utf8')) as LoadResult;
    assert.equal(r.engine, 'k6');
    assert.equal(r.target.timeScale, 1);
    assert.ok(r.wallSeconds >= 80, `a real-time run lasts ~95 s, got ${r.wallSeconds}`);
    assert.deepEqual(
      r.verdicts.filter((v) => v.status === 'fail').map((v) => v.id),
      [],
    );
    assert.ok(readFileSync(join(out, 'load-team.svg'), 'utf8').startsWith('<svg'));
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
});
