/**
 * The k6 engine's bounds and exits, with a real k6 against the reference deployment: the request
 * budget stops a plan before k6 starts, the time limit ends k6 with a truncated, failing result
 * (not a trusted one), a fault that crosses the script's thresholds (k6 exit 99) is a finding
 * with a whole result, and Enterprise without configured numbers is sized by one probe.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type RunningService, startService } from '../../server/start.ts';
import { runLoad } from '../../load/run-load.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import {
  explain,
  failedIds,
  measure,
  measureWithOneRetry,
  SHORT,
  skipWhenBusy,
} from './measure.ts';
import { oneLoadAtATime } from './one-load-at-a-time.ts';

if (!K6) console.log(`# ${NO_K6}`);

/** Counts every request that reaches the deployment's limiter. */
function countRequests(svc: RunningService): () => number {
  let n = 0;
  const inner = svc.ctx.limiter;
  svc.ctx.limiter = {
    take: (...args) => {
      n += 1;
      return inner.take(...args);
    },
  };
  return () => n;
}

describe('the k6 engine', { skip: K6 ? false : NO_K6 }, () => {
  test('a budget too small for the plan stops it before k6 sends anything', async () => {
    const svc = await startService({ timeScale: 10 });
    const count = countRequests(svc);
    try {
      const ws = svc.credentials.workspaces.team;
      await assert.rejects(
        runLoad({
          plans: ['team'],
          baseUrl: svc.baseUrl,
          keys: { team: [ws.keys.full] },
          engine: 'k6',
          timeScale: 10,
          budget: 100,
          outDir: null,
          schedule: SHORT,
        }),
        /plan team needs \d+ requests but only 100 of the budget/,
      );
      assert.equal(count(), 0);
    } finally {
      await svc.close();
    }
  });

  test('the time limit stops k6: the result is marked truncated and does not pass', async () => {
    const svc = await startService({ timeScale: 1 });
    try {
      const ws = svc.credentials.workspaces.enterprise;
      // Enterprise sized from its headers has no pre-flight estimate: only the limit holds it
      // (the real-time schedule needs ~95 s).
      const [r] = await oneLoadAtATime(() =>
        runLoad({
          plans: ['enterprise'],
          baseUrl: svc.baseUrl,
          keys: { enterprise: [ws.keys.full] },
          engine: 'k6',
          timeScale: 1,
          maxSeconds: 4,
          outDir: null,
        }),
      );
      assert.ok(r, 'a result');
      assert.match(r.requests.truncated ?? '', /k6 exited with/, JSON.stringify(r.requests));
      assert.equal(r.passed, false);
      assert.ok(r.wallSeconds < 10, `k6 ran ${r.wallSeconds} s past a 4 s limit`);
    } finally {
      await svc.close();
    }
  });

  test('a fault that crosses the thresholds (k6 exit 99) is a whole, failing result', async () => {
    const r = await measure('k6', 'team', 10, { faults: ['burst-150'] });
    assert.equal(r.requests.truncated, null, explain(r));
    assert.ok(failedIds(r).includes('burst'), explain(r));
  });

  test('Enterprise without configured numbers is sized by one probe and judged', async (t) => {
    // The judgement is timing (like every load measurement): one re-run on a busy machine.
    const {
      results: [r],
      busy,
    } = await measureWithOneRetry(
      'enterprise',
      async (slower) =>
        [await measure('k6', 'enterprise', 8 / slower, { enterprise: 'burst' })] as const,
      ([x]) => (failedIds(x).length ? `failed: ${failedIds(x).join(', ')}` : undefined),
    );
    if (skipWhenBusy(t, busy)) return;
    assert.equal(r.engine, 'k6');
    assert.equal(r.limits.ratePerMin, 300);
    assert.equal(r.limits.rateSource, 'header', 'the rate came from the probe');
    assert.equal(r.limits.burstSource, 'config');
    assert.deepEqual(failedIds(r), [], explain(r));
  });
});
