/**
 * The Node driver's hard limits against the reference deployment: the request budget and the time
 * limit cannot be exceeded (counted by the server itself), a failing plan stops its siblings, and
 * a target that dies mid-run ends in a verdict or an error message, never a crash. The target
 * guard is checked without traffic.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadResult } from '../../load/lib/index.ts';
import { type RunningService, startService } from '../../server/start.ts';
import { runLoad } from '../../load/run-load.ts';
import { isLoopbackHost } from '../../core/net.ts';
import { assertSafeTarget } from '../../load/target-guard.ts';

/** Counts every request that reaches the deployment's limiter (keyed and anonymous alike). */
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

/**
 * Waits until the server has seen no new request for `quietMs`, then checks it stays quiet for a
 * further second. The server shares this process's event loop, so on a loaded machine requests
 * written just before a stop can take far longer than usual to be counted; a driver that keeps
 * sending never goes quiet and fails here.
 */
async function settledCount(count: () => number, what: string, quietMs = 500): Promise<number> {
  const giveUp = Date.now() + 15_000;
  let last = count();
  for (;;) {
    await sleep(quietMs);
    const now = count();
    if (now === last) break;
    assert.ok(Date.now() < giveUp, `${what}: requests kept arriving (${now}) for 15 s`);
    last = now;
  }
  await sleep(1000);
  assert.equal(count(), last, `${what}: requests arrived again after a quiet ${quietMs} ms`);
  return last;
}

const SHORT = { overdriveS: 8, underRateS: 6, idleS: [10, 20] as const };

describe('target guard (no traffic)', () => {
  test('plain HTTP only to loopback unless allowed; HTTPS anywhere', () => {
    for (const ok of [
      'http://127.0.0.1:3000',
      'http://127.9.9.9',
      'http://localhost:1',
      'http://[::1]:80',
    ])
      assert.equal(assertSafeTarget(ok, false).protocol, 'http:', ok);
    assert.equal(
      assertSafeTarget('https://staging.example.com', false).hostname,
      'staging.example.com',
    );
    for (const bad of [
      'http://staging.example.com',
      'http://10.0.0.5:8080',
      'http://0.0.0.0:3000',
      'http://127.0.0.1.nip.io',
      'http://localhost@evil.example',
      'http://[::ffff:10.0.0.1]',
    ])
      assert.throws(() => assertSafeTarget(bad, false), /refusing plain HTTP/, bad);
    assert.equal(assertSafeTarget('http://10.0.0.5:8080', true).hostname, '10.0.0.5');
    assert.throws(() => assertSafeTarget('ftp://127.0.0.1', true), /must be http/);
    assert.throws(() => assertSafeTarget('not a url', true), /not a URL/);
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('example.localhost'), true);
    assert.equal(isLoopbackHost('127.0.0.1.example'), false);
  });
});

describe('hard limits of the Node driver', () => {
  test('a budget too small for the plan stops it with a message, and the server saw no more than the budget', async () => {
    const svc = await startService({ timeScale: 10 });
    const count = countRequests(svc);
    try {
      const ws = svc.credentials.workspaces.team;
      await assert.rejects(
        runLoad({
          plans: ['team'],
          baseUrl: svc.baseUrl,
          keys: { team: [ws.keys.full] },
          engine: 'node',
          timeScale: 10,
          budget: 5,
          outDir: null,
          schedule: SHORT,
        }),
        /budget/,
      );
      assert.ok(count() <= 5, `server saw ${count()} requests with a budget of 5`);
    } finally {
      await svc.close();
    }
  });

  test('a plan that cannot reserve its budget stops the plan running beside it', async () => {
    const svc = await startService({ timeScale: 10 });
    const count = countRequests(svc);
    try {
      const { team, growth } = svc.credentials.workspaces;
      // Room for Team (about 650 requests with warm-up) but never for Growth as well.
      await assert.rejects(
        runLoad({
          plans: ['team', 'growth'],
          baseUrl: svc.baseUrl,
          keys: { team: [team.keys.full], growth: [growth.keys.full] },
          engine: 'node',
          timeScale: 10,
          budget: 1200,
          outDir: null,
          schedule: SHORT,
        }),
        /budget/,
      );
      // Requests written just before the stop may still reach the server; then nothing more.
      const settled = await settledCount(count, 'after runLoad gave up');
      assert.ok(settled <= 1200, `server saw ${settled} requests with a budget of 1200`);
    } finally {
      await svc.close();
    }
  });

  test('the time limit cuts a run short: a truncated, failing result, and nothing sent after it', async () => {
    const svc = await startService({ timeScale: 1 });
    const count = countRequests(svc);
    try {
      const ws = svc.credentials.workspaces.enterprise;
      // Enterprise sized from its headers has no pre-flight estimate: only the limit holds it.
      const [res] = await runLoad({
        plans: ['enterprise'],
        baseUrl: svc.baseUrl,
        keys: { enterprise: [ws.keys.full] },
        engine: 'node',
        timeScale: 1,
        maxSeconds: 1,
        outDir: null,
      });
      const r = res as LoadResult;
      assert.equal(r.requests.truncated, 'time limit reached', JSON.stringify(r.requests));
      assert.equal(r.passed, false, 'a truncated run must not pass');
      assert.equal(
        r.verdicts.find((v) => v.id === 'no-dropped-requests')?.status,
        'fail',
        'dropped',
      );
      await settledCount(count, 'after the time limit');
    } finally {
      await svc.close();
    }
  });

  test('a target that dies mid-run gives failing verdicts or an error message, never a crash', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const svc = await startService({ timeScale: 10 });
    let closed: Promise<void> | undefined;
    try {
      const ws = svc.credentials.workspaces.team;
      const killer = setTimeout(() => {
        closed = svc.close();
      }, 1200);
      let outcome: LoadResult | Error;
      try {
        const [res] = await runLoad({
          plans: ['team'],
          baseUrl: svc.baseUrl,
          keys: { team: [ws.keys.full, ws.keys.full2] },
          engine: 'node',
          timeScale: 10,
          outDir: null,
          schedule: SHORT,
        });
        outcome = res as LoadResult;
      } catch (e) {
        outcome = e as Error;
      } finally {
        clearTimeout(killer);
      }
      if (outcome instanceof Error) assert.match(outcome.message, /\S/, 'an error with a message');
      else {
        assert.equal(outcome.passed, false, 'a run against a dead target must not pass');
        assert.equal(
          outcome.verdicts.find((v) => v.id === 'only-200-or-429')?.status,
          'fail',
          'transport errors show as other answers',
        );
      }
      await sleep(50);
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await (closed ?? svc.close());
    }
  });
});

describe('an absurd Retry-After', () => {
  test('is not waited out: the retry probe is skipped and the run is not truncated by its time limit', async () => {
    const svc = await startService({ timeScale: 10 });
    const inner = svc.ctx.limiter;
    // Every 429 says: come back in about 11 days.
    svc.ctx.limiter = {
      take: (...args) => {
        const d = inner.take(...args);
        return d.allowed ? d : { ...d, retryAfterMs: 1e9 };
      },
    };
    try {
      const [r] = (await runLoad({
        plans: ['team'],
        baseUrl: svc.baseUrl,
        keys: { team: [svc.credentials.workspaces.team.keys.full] },
        engine: 'node',
        timeScale: 10,
        maxSeconds: 60,
        outDir: null,
        schedule: SHORT,
      })) as LoadResult[];
      assert.equal(
        r!.requests.truncated,
        null,
        'the run completed instead of waiting for the time limit',
      );
      const honoured = r!.verdicts.find((v) => v.id === 'retry-after-honoured');
      assert.notEqual(
        honoured?.status,
        'pass',
        `retry-after-honoured must not pass: ${honoured?.observed}`,
      );
    } finally {
      await svc.close();
    }
  });
});
