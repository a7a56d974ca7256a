/**
 * The load checks against the reference deployment, with its clock running faster: the correct
 * limiter passes for Team, Growth and Enterprise, and every limiter fault of the catalogue is
 * caught by its named verdict or shows in the observed classification.
 */
import { FAULTS as CATALOGUE } from '../../server/faults.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LoadResult, PlanName } from '../../load/lib/index.ts';
import { startService } from '../../server/start.ts';
import { runLoad } from '../../src/load/run-load.ts';
import { LIMITER_FAULTS } from './limiter-faults.ts';

async function measure(
  plan: PlanName,
  timeScale: number,
  faults: string[] = [],
): Promise<LoadResult> {
  const svc = await startService({ timeScale, faults });
  try {
    const ws = svc.credentials.workspaces[plan];
    const [res] = await runLoad({
      plans: [plan],
      baseUrl: svc.baseUrl,
      keys: { [plan]: [ws.keys.full, ws.keys.full2] },
      engine: 'node',
      timeScale,
      outDir: null,
      maxSeconds: 60,
      // A shorter schedule (the shape is what matters here): ~47 server seconds.
      schedule: { overdriveS: 8, underRateS: 6, idleS: [10, 20] },
      ...(plan === 'enterprise' ? { enterprise: { burst: ws.burst } } : {}),
    });
    return res!;
  } finally {
    await svc.close();
  }
}

const failed = (r: LoadResult) => r.verdicts.filter((v) => v.status === 'fail').map((v) => v.id);
const explain = (r: LoadResult) =>
  JSON.stringify(
    {
      failed: r.verdicts.filter((v) => v.status === 'fail'),
      burst: r.estimates.burst,
      rate: r.estimates.rate.perMin,
      limiter: r.limiter,
    },
    null,
    1,
  );

describe('plan limits of the correct reference deployment', () => {
  const results = new Map<PlanName, LoadResult>();
  before(async () => {
    // One at a time: client and server share this event loop, and B̂'s precision is timing.
    for (const [plan, scale] of [
      ['team', 10],
      ['growth', 5],
      ['enterprise', 8],
    ] as const)
      results.set(plan, await measure(plan, scale));
  });
  for (const plan of ['team', 'growth', 'enterprise'] as const) {
    test(`${plan}: token bucket, epoch seconds, per-key scope, B̂ and r̂ hold the plan`, () => {
      const r = results.get(plan)!;
      assert.deepEqual(failed(r), [], explain(r));
      // Precision depends on how busy this machine is (no timed assertions): B̂ and r̂ must
      // hold the plan inside their intervals; 'inconclusive' only says the interval got wide.
      for (const id of ['burst', 'rate'])
        assert.ok(
          ['pass', 'inconclusive'].includes(r.verdicts.find((v) => v.id === id)!.status),
          explain(r),
        );
      assert.equal(r.limiter.algorithm, 'token-bucket');
      assert.equal(r.resetUnit.unit, 'epoch-s');
      assert.equal(r.scope.scope, 'per-key');
    });
  }
});

const FAULTS = LIMITER_FAULTS;

describe('each limiter fault is caught (Team, clock 10×)', () => {
  test('every limits fault of the catalogue is in this table', () => {
    const catalogue = CATALOGUE.filter((f) => f.area === 'limits')
      .map((f) => f.name)
      .sort();
    assert.deepEqual(
      Object.keys(FAULTS).sort(),
      catalogue,
      'a limits fault without a detection case',
    );
  });

  const results = new Map<string, LoadResult>();
  before(async () => {
    const names = Object.keys(FAULTS);
    // Client and servers share this event loop: three at a time keeps the timing honest.
    for (let i = 0; i < names.length; i += 3) {
      const batch = names.slice(i, i + 3);
      const runs = await Promise.all(batch.map((f) => measure('team', 10, [f])));
      for (const [k, f] of batch.entries()) results.set(f, runs[k]!);
    }
  });
  after(() => results.clear());
  for (const [fault, expect] of Object.entries(FAULTS)) {
    test(`${fault} → ${expect.verdicts.join(' or ')}${expect.classification ? ' / classification' : ''}`, () => {
      const r = results.get(fault)!;
      const f: string[] = failed(r);
      const byVerdict = expect.verdicts.some((v) => f.includes(v));
      const byClass = expect.classification === true && r.limiter.algorithm !== 'token-bucket';
      assert.ok(byVerdict || byClass, `${fault} not caught: ${explain(r)}`);
      if (fault === 'reset-ms') assert.equal(r.resetUnit.unit, 'epoch-ms');
      if (fault === 'shared-bucket') assert.equal(r.scope.scope, 'shared');
    });
  }
});
