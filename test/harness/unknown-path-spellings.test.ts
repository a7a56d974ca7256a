/**
 * Two more spellings of an unknown API path — the bare /v1 and an absolute-form request target
 * (`GET http://host/v1/… HTTP/1.1`) — are held to the key's plan limit on a deployment the
 * harness did not start, reached only through HARNESS_* variables (no admin token), as a user
 * points it at staging:
 *  - a deployment that takes them for requests outside the API fails ratelimit.plan-limit on
 *    each, and each failure's repro, run as pasted, gets the reported status and Limit (the
 *    absolute form through curl's --request-target);
 *  - the correct deployment passes, alone and behind a gateway that answers both spellings itself
 *    without the service's headers (nginx: 301 for the bare /v1): those answers are recorded as
 *    not the service's, never judged.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Summary } from '../../report/summary.ts';
import {
  type HarnessRun,
  runHarness,
  serveReference,
  startTarget,
  stopAll,
} from './gate-processes.ts';

const sh = promisify(execFile);
const GREP = 'unknown path under the API prefix';
after(stopAll);

/** The served deployment's variables as staging has them: no admin surface. */
async function staging(faults: string[] = []) {
  const ref = await serveReference(faults);
  const { HARNESS_ADMIN_TOKEN: _admin, ...vars } = ref.vars;
  return { ...ref, vars };
}

const run = (vars: Record<string, string>) =>
  runHarness(vars, ['--area', 'contracts', '--grep', GREP], { limitMs: 120_000 });

/** What the test recorded of each spelling's answer (its probes, in snapshot.json). */
function spellings(r: HarnessRun): Record<string, unknown> {
  const gaps = JSON.parse(r.read('snapshot.json')).gaps?.transport ?? {};
  return Object.fromEntries(
    Object.entries(gaps)
      .filter(([id]) => id.startsWith('unknown-path-answer:'))
      .map(([id, v]) => [id.split(':')[1], v]),
  );
}

describe('the bare /v1 and an absolute-form target, on a deployment the harness did not start', () => {
  test('taken for requests outside the API: both fail the plan rule, and each repro replays', {
    timeout: 180_000,
  }, async () => {
    const { vars } = await staging(['bare-prefix-outside-api', 'absolute-form-outside-api']);
    const r = await run(vars);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const s = JSON.parse(r.read('summary.json')) as Summary;
    const failures = s.areas.contracts!.documentedFailures.filter(
      (f) => f.check === 'ratelimit.plan-limit',
    );
    assert.deepEqual(
      failures.map((f) => /from (GET \S+(?: \(absolute-form target\))?)/.exec(f.received)?.[1]),
      ['GET /v1', 'GET /v1/no-such-resource (absolute-form target)'],
      failures.map((f) => f.received).join('\n'),
    );
    for (const f of failures) {
      assert.match(f.expected, /^120, the team plan's/);
      const limit = /X-RateLimit-Limit (\d+) on (\d{3})/.exec(f.received)!;
      const { stdout } = await sh('sh', ['-c', f.repro!], {
        env: { PATH: process.env.PATH, ...vars },
      });
      assert.match(stdout, new RegExp(`^HTTP/1.1 ${limit[2]} `), f.repro);
      assert.match(stdout, new RegExp(`^x-ratelimit-limit: ${limit[1]}\\r?$`, 'im'), f.repro);
      for (const v of ['HARNESS_API_KEY', 'HARNESS_READONLY_KEY', 'HARNESS_OTHER_WORKSPACE_KEY'])
        assert.equal(f.repro!.includes(vars[v]!), false, `${v} in a repro`);
      // Never the run's key: its bucket is the run's budget.
      assert.doesNotMatch(f.repro!, /\$HARNESS_API_KEY\b/);
    }
    assert.match(failures[1]!.repro!, /--request-target '[^']+\/v1\/no-such-resource'/);
  });

  test('the correct deployment passes, and both are judged there', {
    timeout: 180_000,
  }, async () => {
    const { vars } = await staging();
    const r = await run(vars);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(spellings(r), { 'bare-prefix': '404', 'absolute-form': '404' });
  });

  test('behind a gateway that answers both itself: a pass, its answers recorded as not the service’s', {
    timeout: 180_000,
  }, async () => {
    const { vars } = await staging();
    const gateway = await startTarget('gateway', ['--upstream', vars.HARNESS_BASE_URL!]);
    const r = await run({ ...vars, HARNESS_BASE_URL: gateway.url });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(spellings(r), {
      'bare-prefix': '301, no X-RateLimit-Limit',
      'absolute-form': '400, no X-RateLimit-Limit',
    });
  });
});
