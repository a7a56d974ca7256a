/**
 * Repros reproduce: `harness run` (a separate process) against a reference deployment with
 * faults on (another process) reports failures of requests sent with each kind of key — the
 * full-access, read-only and other-workspace keys, and a bogus one — and each repro, taken from
 * summary.json and run as pasted with `sh -c` and the credentials' variables set, gets from
 * the deployment the status the report states. A documented failure's repro is in junit.xml too.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Failure } from '../../core/checks/types.ts';
import type { Summary } from '../../report/summary.ts';
import { type HarnessRun, runHarness, serveReference, stopAll } from './gate-processes.ts';

const sh = promisify(execFile);

/** The status a failure reports for its exchange: leading, or after an arrow. */
const reportedStatus = (f: Failure) => /(?:^|→ )([1-5]\d\d)\b/.exec(f.received)?.[1];

let run: HarnessRun;
let vars: Record<string, string>;

before(async () => {
  const ref = await serveReference([
    'create-200',
    'readonly-can-write',
    'cross-workspace-read',
    'invalid-key-accepted',
  ]);
  vars = ref.vars;
  run = await runHarness(vars, [
    '--skip',
    'load',
    '--skip',
    'fuzz',
    '--grep',
    '@auth.readonly-forbidden|@isolation.get-other-workspace|@auth.invalid-key-rejected|@exchange.documented-status',
  ]);
});

after(stopAll);

test('every repro of the report, run as pasted, gets the reported status', {
  timeout: 180_000,
}, async () => {
  assert.equal(run.code, 1, `the faults fail the gate\n${run.stdout}\n${run.stderr}`);
  const s = JSON.parse(run.read('summary.json')) as Summary;
  const failures = Object.values(s.areas).flatMap((a) => [
    ...a.documentedFailures,
    ...a.assumptionMismatches,
  ]);
  // State the run consumed is gone: a DELETE's object, and the contacts its clean-up deleted
  // (tickets it only closed). Replayed, those rightly answer 404.
  const deleted = (s.created ?? []).filter((c) => c.startsWith('contact ')).map((c) => c.slice(8));
  const replayable = failures.filter(
    (f) =>
      f.repro?.startsWith('curl ') &&
      reportedStatus(f) &&
      !/-X DELETE/.test(f.repro) &&
      !deleted.some((id) => f.repro!.includes(id)),
  );
  assert.ok(replayable.length >= 8, `${replayable.length} repros to replay`);
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
  for (const f of replayable) {
    const { stdout, stderr } = await sh('sh', ['-c', f.repro!], {
      env: { PATH: process.env.PATH, ...vars },
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => ({
      stdout: e.stdout ?? '',
      stderr: `${e.stderr ?? ''}\n${e.message}`,
    }));
    const got = /^HTTP\/[\d.]+ (\d{3})/.exec(stdout)?.[1];
    // What the replay answered, so a mismatch on a CI machine can be read from its log.
    const answer = `${stdout.slice(0, 1500)}${stderr ? `\nstderr: ${stderr.slice(0, 500)}` : ''}`;
    assert.equal(
      got,
      reportedStatus(f),
      `${f.check}: ${f.received}\n${f.repro}\nthe replay answered:\n${answer}`,
    );
    // junit.xml fails a case on documented failures (assumed ones pass it, not strict).
    if (f.provenance === 'documented')
      assert.ok(junit.includes(f.repro!), `${f.check}: the same repro is in junit.xml`);
    for (const key of [
      '$HARNESS_API_KEY',
      '$HARNESS_READONLY_KEY',
      '$HARNESS_OTHER_WORKSPACE_KEY',
      'Bearer sk_harness_invalid_',
    ])
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
  // No key itself in a repro: the variables stand for them.
  for (const v of ['HARNESS_API_KEY', 'HARNESS_READONLY_KEY', 'HARNESS_OTHER_WORKSPACE_KEY'])
    for (const f of failures) assert.equal(f.repro?.includes(vars[v]!), false, `${v} leaked`);
});
