/**
 * Repros reproduce, on both kinds of target:
 *  - a real one: `harness run` (a separate process) against a reference deployment with faults on
 *    and the reading U5=create-200 (another process) reports failures of requests sent with each
 *    kind of key — the full-access, read-only and other-workspace keys, and a bogus one (the
 *    reading's 200 to a creation: an assumption mismatch, replayed too) — and each repro, taken from
 *    summary.json and run as pasted with `sh -c` and the credentials' variables set, gets from
 *    the deployment the status the report states. A documented failure's repro is in junit.xml.
 *  - the embedded one, gone when the run ends: its report says once (console, HTML,
 *    summary.json) what to start and load; started as it says — `harness serve` in its own
 *    process, the env file it writes loaded into the shell — each repro, pasted after that, gets
 *    the reported status, and the foreign write that was refused but applied shows again.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Failure } from '../../core/checks/types.ts';
import type { Summary } from '../../report/summary.ts';
import {
  type HarnessRun,
  runHarness,
  serveAsTold,
  serveReference,
  stopAll,
} from './gate-processes.ts';

const sh = promisify(execFile);

/** The status a failure reports for its exchange: leading, or after an arrow. */
const reportedStatus = (f: Failure) => /(?:^|→ )([1-5]\d\d)\b/.exec(f.received)?.[1];

const FAULTS = ['readonly-can-write', 'cross-workspace-read', 'invalid-key-accepted'];
const GREP =
  '@auth.readonly-forbidden|@isolation.get-other-workspace|@auth.invalid-key-rejected|@exchange.documented-status';

const failuresOf = (s: Summary) =>
  Object.values(s.areas).flatMap((a) => [...a.documentedFailures, ...a.assumptionMismatches]);

/** Repros whose last line is the request with a status to compare (a curl repro, replayable). */
const replayable = (fs: Failure[]) =>
  fs.filter(
    (f) =>
      f.repro?.split('\n').at(-1)?.startsWith('curl -i ') &&
      !f.repro.startsWith('# sent with a key the run issued') &&
      reportedStatus(f),
  );

/** Runs a repro with `sh -c` (after `prelude`, when given); its stdout, stderr and the status. */
async function replay(
  repro: string,
  o: { env: Record<string, string>; cwd?: string; prelude?: string },
) {
  const script = o.prelude ? `${o.prelude}\n${repro}` : repro;
  const { stdout, stderr } = await sh('sh', ['-c', script], {
    env: { PATH: process.env.PATH, ...o.env },
    ...(o.cwd ? { cwd: o.cwd } : {}),
  }).catch((e: { stdout?: string; stderr?: string; message: string }) => ({
    stdout: e.stdout ?? '',
    stderr: `${e.stderr ?? ''}\n${e.message}`,
  }));
  return { stdout, stderr, status: /^HTTP\/[\d.]+ (\d{3})/m.exec(stdout)?.[1] };
}

const KEY_VARS = ['HARNESS_API_KEY', 'HARNESS_READONLY_KEY', 'HARNESS_OTHER_WORKSPACE_KEY'];

after(stopAll);

describe('a real target', () => {
  let run: HarnessRun;
  let vars: Record<string, string>;

  before(async () => {
    const ref = await serveReference(FAULTS, ['--reading', 'U5=create-200']);
    vars = ref.vars;
    run = await runHarness(vars, ['--skip', 'load', '--skip', 'fuzz', '--grep', GREP], {
      limitMs: 300_000,
    });
  });

  test('every repro of the report, run as pasted, gets the reported status', {
    timeout: 300_000,
  }, async () => {
    assert.equal(run.code, 1, `the faults fail the gate\n${run.stdout}\n${run.stderr}`);
    const s = JSON.parse(run.read('summary.json')) as Summary;
    assert.equal(s.replay, undefined, 'a real target needs no replay instructions');
    assert.doesNotMatch(run.stdout, /these repros replay against/);
    const failures = failuresOf(s);
    const todo = replayable(failures);
    assert.ok(todo.length >= 8, `${todo.length} repros to replay`);
    const junit = run
      .read('junit.xml')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const seen = new Set<string>();
    // One after another, in the report's order: two failures may share a request (the same
    // object written twice), and the deployment then sees what a user pasting them would send.
    for (const f of todo) {
      const got = await replay(f.repro!, { env: vars });
      assert.equal(
        got.status,
        reportedStatus(f),
        `${f.check}: ${f.received}\n${f.repro}\nthe replay answered:\n${got.stdout.slice(0, 1500)}\nstderr: ${got.stderr.slice(0, 500)}`,
      );
      // junit.xml fails a case on documented failures (assumed ones pass it, not strict).
      if (f.provenance === 'documented')
        assert.ok(junit.includes(f.repro!), `${f.check}: the same repro is in junit.xml`);
      for (const key of [...KEY_VARS.map((k) => `$${k}`), 'Bearer sk_harness_invalid_'])
        if (f.repro!.includes(key)) seen.add(key);
    }
    assert.deepEqual(
      [...seen].sort(),
      [
        '$HARNESS_API_KEY',
        '$HARNESS_OTHER_WORKSPACE_KEY',
        '$HARNESS_READONLY_KEY',
        'Bearer sk_harness_invalid_',
      ],
      'repros of requests sent with every kind of key were replayed',
    );
    // No key itself in a repro: the variables stand for them. The URL is the target's own.
    for (const v of KEY_VARS)
      for (const f of failures) assert.equal(f.repro?.includes(vars[v]!), false, `${v} leaked`);
    assert.ok(todo.every((f) => f.repro!.includes(vars.HARNESS_BASE_URL!)));
  });
});

describe('the embedded deployment, gone with the run', () => {
  let run: HarnessRun;
  const dir = mkdtempSync(join(tmpdir(), 'harness-replay-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  before(async () => {
    // No HARNESS_* variable at all: the embedded deployment, with the faults on.
    run = await runHarness(
      {},
      [
        '--skip',
        'load',
        '--skip',
        'fuzz',
        '--fault',
        [...FAULTS, 'foreign-write-applied-404'].join(','),
        '--grep',
        `${GREP}|@isolation.foreign-unchanged`,
      ],
      { limitMs: 300_000 },
    );
  });

  test('its report says once what to start; started so, every repro gets the reported status', {
    timeout: 300_000,
  }, async () => {
    assert.equal(run.code, 1, `the faults fail the gate\n${run.stdout}\n${run.stderr}`);
    const s = JSON.parse(run.read('summary.json')) as Summary;
    const r = s.replay;
    assert.ok(r, 'summary.json says how the repros replay');
    assert.match(
      r.start,
      /^npm run serve -- --api-plan growth --fault \S+ --port 0 --env-out \S+$/,
    );
    for (const f of [...FAULTS, 'foreign-write-applied-404']) assert.ok(r.start.includes(f), f);
    // Said once, on the console and on the page.
    assert.equal(run.stdout.split('these repros replay against').length, 2, run.stdout);
    assert.ok(run.stdout.includes(r.start) && run.stdout.includes(r.load));
    const html = run.read('index.html');
    assert.equal(html.split('<div class="replay">').length, 2);

    // Started as it says: `npm run serve -- ARGS`, from a directory of the user's.
    await serveAsTold(r.start.replace(/^npm run serve -- /, '').split(' '), dir);
    const failures = failuresOf(s);
    const todo = replayable(failures);
    assert.ok(todo.length >= 8, `${todo.length} repros to replay`);
    for (const f of todo) {
      // Each in a fresh shell: the two commands of the report, then the repro as pasted.
      const got = await replay(f.repro!, { env: {}, cwd: dir, prelude: r.load });
      assert.equal(
        got.status,
        reportedStatus(f),
        `${f.check}: ${f.received}\n${f.repro}\nthe replay answered:\n${got.stdout.slice(0, 1500)}\nstderr: ${got.stderr.slice(0, 500)}`,
      );
      assert.match(f.repro!, /"\$HARNESS_BASE_URL"/, 'the gone deployment is named by variable');
    }
    // The refused foreign write that was applied: its repro replays B's writes, then A's read
    // shows B's subject again (a plain GET of the run's ticket showed nothing on a new deployment).
    const applied = failures.find((f) => f.check === 'isolation.foreign-unchanged');
    assert.ok(applied?.repro, 'the isolation failure has a repro');
    assert.match(applied.repro, /^TICKET=\$\(curl -s -X POST /m);
    assert.match(applied.repro, /^curl -s -o \/dev\/null -X PATCH .*HARNESS_OTHER_WORKSPACE_KEY/m);
    const got = await replay(applied.repro, { env: {}, cwd: dir, prelude: r.load });
    assert.equal(got.status, '200', got.stdout);
    assert.match(got.stdout, /"subject":"taken over by workspace B [0-9a-f]+"/);
    // Ids of the run's objects are never sent back: each replay creates its own.
    for (const f of todo) assert.doesNotMatch(f.repro!, /\/v1\/tickets\/tkt_/);
  });
});
