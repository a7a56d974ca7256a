/**
 * Load verdicts in the one failure shape: a failed documented limit is a documented failure, a
 * failed assumption (or observation) an assumption mismatch, an inconclusive verdict not run —
 * and a pass nothing at all. loadArea files them without translating anything itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { LoadResult } from '../../load/lib/result.ts';
import { loadFailures, loadNotRun } from '../../load/failures.ts';
import { loadArea } from '../../load/load-step.ts';
import { type JudgedRun, judgeOtherWorkspace, judgeVerdicts } from '../../load/lib/verdicts.ts';
import type { Schedule } from '../../load/lib/schedule.ts';
import { VERDICT_RULES, verdictAssumptions } from '../../core/checks/load-verdicts.ts';

const passing = JSON.parse(
  readFileSync(new URL('../report/fixtures/load-team.json', import.meta.url), 'utf8'),
) as LoadResult;

function withStatuses(s: Record<string, 'fail' | 'inconclusive'>): LoadResult {
  const r = structuredClone(passing);
  for (const v of r.verdicts) if (s[v.id]) v.status = s[v.id]!;
  return r;
}

test('a passing run is no failure and nothing not run', () => {
  assert.deepEqual(loadFailures(passing), []);
  assert.deepEqual(loadNotRun(passing), []);
  assert.equal(loadArea([passing]).verdict, 'pass');
});

test('failed verdicts keep their provenance; inconclusive ones are not run', () => {
  const r = withStatuses({ burst: 'fail', algorithm: 'fail', rate: 'inconclusive' });
  const fs = loadFailures(r);
  assert.deepEqual(
    fs.map((f) => [f.check, f.provenance]),
    [
      ['load.burst', 'documented'],
      ['load.algorithm', 'assumed'],
    ],
  );
  const burst = r.verdicts.find((v) => v.id === 'burst')!;
  assert.equal(fs[0]!.received, burst.observed);
  assert.equal(fs[0]!.expected, burst.expected);
  assert.match(fs[0]!.rule, /^team: /);
  assert.deepEqual(
    loadNotRun(r).map((n) => n.name),
    ['team rate'],
  );
  const area = loadArea([r]);
  assert.equal(area.verdict, 'fail');
  assert.deepEqual(
    area.documentedFailures.map((f) => f.check),
    ['load.burst'],
  );
  assert.deepEqual(
    area.assumptionMismatches.map((f) => f.check),
    ['load.algorithm'],
  );
});

test('an observed rule that fails is filed as an assumption mismatch, not a documented failure', () => {
  const area = loadArea([withStatuses({ 'only-200-or-429': 'fail' })]);
  assert.equal(area.verdict, 'warn');
  assert.deepEqual(
    area.assumptionMismatches.map((f) => f.check),
    ['load.only-200-or-429'],
  );
});

test('an inconclusive verdict says in words why it could not decide (not a bare number)', () => {
  // Growth as a real run met it: B̂ 1005.6 ± 11.1, the highest Remaining of the burst 999.
  const burst = {
    value: 1005.6,
    low: 994.5,
    high: 1016.7,
    uncertainty: 11.1,
    acceptedBeforeFirst429: 1001,
    acceptedInBurst: 1012,
    refillCorrection: 6.4,
    deltaLowS: 0.5,
    deltaHighS: 0.8,
  };
  const s1 = { sent: 1220, ok: 1012, rej: 208, remOkMax: 999 };
  const run = {
    limits: { burst: 1000, ratePerMin: 600, burstSource: 'plan', rateSource: 'plan' },
    // No other workspace's phases planned: that verdict is skipped, not inconclusive.
    schedule: { phases: [] },
    agg: { S1: s1 },
    burst,
    rate: { method: 'none', n: 2, perS: Number.NaN, perMin: Number.NaN },
    limiter: { algorithm: 'unknown', confidence: 'low', alternatives: [] },
    resetUnit: { unit: 'epoch-s', agreement: 0.8 },
    scope: { scope: 'per-key', evidence: [] },
    dropped: 0,
  } as unknown as JudgedRun;
  const verdicts = judgeVerdicts(run);
  const open = verdicts.filter((v) => v.status === 'inconclusive');
  assert.deepEqual(
    open.map((v) => v.id),
    [
      'burst',
      'rate',
      'rate-held',
      'retry-after-honoured',
      'remaining-matches-burst',
      'reset-unit',
      'algorithm',
    ],
  );
  for (const v of open) assert.match(v.why ?? '', /[a-z]{3,} [a-z]{2,}/, `${v.id}: ${v.why}`);
  for (const v of verdicts.filter((x) => x.status === 'pass' || x.status === 'fail'))
    assert.equal(v.why, undefined, `${v.id} decided: no why`);
  const r = { ...structuredClone(passing), plan: 'growth', verdicts } as LoadResult;
  const reason = loadNotRun(r).find((n) => n.name === 'growth remaining-matches-burst')?.reason;
  assert.equal(
    reason,
    "inconclusive: the highest Remaining 999 means 1000 tokens, which lies in B̂'s interval 994.5…1016.7, but that interval (± 11.1) is wider than ± 3 tokens: too coarse a measurement to vouch for it",
  );
  assert.equal(
    verdicts.find((v) => v.id === 'remaining-matches-burst')?.observed,
    'highest Remaining in the burst 999 (so 1000 tokens)',
  );
});

test('a documented verdict read through a token bucket the run did not show leans on U24: a mismatch, never fatal', () => {
  // A window limiter's Team run: 150 accepted in the burst, S2's accepts all at once, S2b refused.
  const burst = {
    value: 150.2,
    low: 149.5,
    high: 150.9,
    uncertainty: 0.7,
    acceptedBeforeFirst429: 150,
    acceptedInBurst: 150,
    refillCorrection: 0.8,
    deltaLowS: 0.3,
    deltaHighS: 0.5,
  };
  const rate = {
    method: 'regression',
    n: 60,
    perS: 8,
    perMin: 480,
    ciLowPerS: 7.9,
    ciHighPerS: 8.1,
  };
  const run = (algorithm: string) =>
    ({
      limits: { burst: 200, ratePerMin: 120, burstSource: 'documented', rateSource: 'documented' },
      schedule: { phases: [] },
      agg: {
        S1: { sent: 260, ok: 150, rej: 110, remOkMax: 149, limitBad: 0, remainingNonZeroOn429: 0 },
        S2b: { sent: 27, rej: 27, limitBad: 0, remainingNonZeroOn429: 0 },
      },
      burst,
      rate: { ...rate, relUncertainty: 0.0125 },
      limiter: { algorithm, confidence: 'high', alternatives: [] },
      resetUnit: { unit: 'epoch-s', agreement: 1 },
      scope: { scope: 'per-key', evidence: [] },
      dropped: 0,
    }) as unknown as JudgedRun;
  const filed = (algorithm: string) => {
    const verdicts = judgeVerdicts(run(algorithm));
    const fs = loadFailures({ ...structuredClone(passing), verdicts } as LoadResult);
    const ids = ['load.burst', 'load.rate', 'load.no-429-below-rate'];
    return fs.filter((f) => ids.includes(f.check));
  };
  const window = filed('fixed-window');
  assert.deepEqual(
    window.map((f) => [f.check, f.provenance]),
    [
      ['load.burst', 'assumed'],
      ['load.rate', 'assumed'],
      ['load.no-429-below-rate', 'assumed'],
    ],
  );
  for (const f of window)
    assert.match(f.expected, /judged on an assumption \(U24\): .*the run showed a fixed-window/);
  assert.equal(
    loadArea([
      { ...structuredClone(passing), verdicts: judgeVerdicts(run('fixed-window')) } as LoadResult,
    ]).verdict,
    'warn',
  );
  // The same numbers from a run that showed a token bucket: the deployment's own, documented.
  assert.deepEqual(
    filed('token-bucket').map((f) => [f.check, f.provenance]),
    [
      ['load.burst', 'documented'],
      ['load.rate', 'documented'],
      ['load.no-429-below-rate', 'documented'],
    ],
  );
  // Which documented verdicts may lean, and on what: declared with the rules.
  assert.deepEqual(
    VERDICT_RULES.filter((v) => v.provenance === 'documented').map((v) => [
      v.id,
      verdictAssumptions(v.id),
    ]),
    [
      ['limit-header', []],
      ['burst', ['U24']],
      ['rate', ['U24']],
      ['rate-held', ['U24']],
      ['no-429-below-rate', ['U24']],
      ['remaining-zero-on-429', []],
      ['other-workspace', []],
    ],
  );
});

test('a client sending past the rate and starved fails rate-held where the run showed a bucket to the clients keeping to it; a window leans on U24', () => {
  // Team, S2 at 4r for 15 s on the drained key: the plan grants 30 of it.
  const run = (ok: number, limiter: Record<string, unknown>) =>
    ({
      limits: { burst: 200, ratePerMin: 120, burstSource: 'documented', rateSource: 'documented' },
      schedule: { phases: [], r: 2 },
      agg: { S2: { sent: 120, ok, rej: 120 - ok, firstSentS: 1.6, lastSentS: 16.6, limitBad: 0 } },
      rate: { method: 'none', n: ok, perS: Number.NaN, perMin: Number.NaN },
      limiter: { confidence: 'low', alternatives: [], ...limiter },
      resetUnit: { unit: 'epoch-s', agreement: 1 },
      scope: { scope: 'per-key', evidence: [] },
      dropped: 0,
    }) as unknown as JudgedRun;
  const held = (ok: number, limiter: Record<string, unknown>) =>
    judgeVerdicts(run(ok, limiter)).find((v) => v.id === 'rate-held')!;
  // Starved, while S2b and the recoveries after idling showed a bucket: the deployment's own.
  const starved = held(0, { algorithm: 'sliding-counter', keptToRate: true });
  assert.equal(starved.status, 'fail');
  assert.equal(starved.leansOn, undefined);
  assert.match(starved.expected, /at least 15\.0 accepted: half the 30\.0 that 120\/min grants/);
  assert.equal(
    loadFailures({ ...structuredClone(passing), verdicts: [starved] } as LoadResult)[0]?.provenance,
    'documented',
  );
  // The same empty S2 from a window drained until its boundary: an assumption mismatch of U24.
  const window = held(0, { algorithm: 'fixed-window', keptToRate: false });
  assert.equal(window.status, 'fail');
  assert.equal(window.leansOn?.gap, 'U24');
  // A bucket's count, and one a little slow (100/min: 25), pass; half the plan is the floor.
  assert.equal(held(30, { algorithm: 'token-bucket', keptToRate: true }).status, 'pass');
  assert.equal(held(25, { algorithm: 'token-bucket', keptToRate: true }).status, 'pass');
  assert.equal(held(14, { algorithm: 'token-bucket', keptToRate: true }).status, 'fail');
});

test('a verdict skipped for want of a key is listed as not run, saying which', () => {
  const v = judgeOtherWorkspace({}, { phases: [] } as unknown as Schedule);
  const r = { ...structuredClone(passing), verdicts: [v] } as LoadResult;
  assert.deepEqual(loadNotRun(r), [
    {
      name: 'team other-workspace',
      reason:
        'skipped: needs HARNESS_OTHER_WORKSPACE_KEY (a key of another workspace, none of whose keys this run loads)',
    },
  ]);
  assert.equal(loadArea([r]).verdict, 'pass');
});

test('a result written before verdicts said why: what was seen and expected, in words', () => {
  const r = withStatuses({ 'remaining-matches-burst': 'inconclusive' });
  const v = r.verdicts.find((x) => x.id === 'remaining-matches-burst')!;
  assert.equal(
    loadNotRun(r)[0]?.reason,
    `inconclusive: observed ${v.observed}, expected ${v.expected}`,
  );
});
