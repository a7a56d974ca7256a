/**
 * The plan-limit verdicts. Each is a small named function over the judged run; ids are stable
 * (reports, k6 thresholds and tests refer to them). Provenance follows docs/assumptions.md: a documented
 * rule fails the gate, an assumed one reports "differs from assumption".
 */
import type { ResetUnitReport } from './reset-unit.ts';
import type { BurstEstimate, RateEstimate } from './estimators.ts';
import type { LimiterClassification } from './classify-limiter.ts';
import type { Aggregates } from './metrics.ts';
import type { PlanLimits } from './plans.ts';
import { OTHER_WORKSPACE_PHASES, type Schedule } from './schedule.ts';

import {
  type VerdictRule,
  verdictAssumptions,
  verdictRule,
} from '../../core/checks/load-verdicts.ts';

export { VERDICT_IDS, type VerdictId, verdictRule } from '../../core/checks/load-verdicts.ts';
export type VerdictStatus = 'pass' | 'fail' | 'inconclusive' | 'skipped';

export interface Verdict extends VerdictRule {
  status: VerdictStatus;
  expected: string;
  observed: string;
  /**
   * Inconclusive: in words, why the measurement could not decide; skipped for want of
   * configuration (a key the run was not given): what it needs. Reports list both as not run.
   */
  why?: string;
  /**
   * A documented verdict's failure that an assumed model decided (a gap of the rule's declared
   * assumptions): reported as an assumption mismatch naming the gap (load/failures.ts), never a
   * gate failure — a correct deployment may read that gap otherwise.
   */
  leansOn?: { gap: string; why: string };
}

export type Scope = 'per-key' | 'shared' | 'unknown';

export interface ScopeReport {
  scope: Scope;
  evidence: string[];
}

export interface JudgedRun {
  limits: PlanLimits;
  schedule: Schedule;
  agg: Aggregates;
  burst: BurstEstimate | undefined;
  rate: RateEstimate;
  limiter: LimiterClassification;
  resetUnit: ResetUnitReport;
  scope: ScopeReport;
  dropped: number;
  /** Set when the budget or time limit cut the run short. */
  truncated?: string | undefined;
}

/** B̂ tolerance: the measured uncertainty, never wider than ±3 tokens. */
export const BURST_MAX_TOLERANCE = 3;
/** r̂ tolerance: the measured 95 % interval, floored at the ±1 % aimed for; wider than ±3 % is inconclusive. */
export const RATE_MAX_TOLERANCE = 0.03;
export const RATE_MIN_TOLERANCE = 0.01;

const f = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
/**
 * The plan's own phases: the other workspace's answers carry that workspace's plan and bucket,
 * so only its own verdict (judgeOtherWorkspace) reads them.
 */
const ownPhases = (agg: Aggregates) =>
  Object.values(agg).filter(
    (p): p is NonNullable<Aggregates['S1']> =>
      p !== undefined && !OTHER_WORKSPACE_PHASES.has(p.phase),
  );
const sum = (agg: Aggregates, pick: (p: NonNullable<Aggregates['S1']>) => number) =>
  ownPhases(agg).reduce((n, p) => n + pick(p), 0);

/**
 * A burst number against B̂: outside the measured interval is a certain failure; inside it passes
 * only when the interval is no wider than ±3 tokens — a coarser measurement cannot vouch for it.
 */
const burstStatus = (v: number, b: BurstEstimate): VerdictStatus =>
  !(v >= b.low - 1e-9 && v <= b.high + 1e-9)
    ? 'fail'
    : b.uncertainty <= BURST_MAX_TOLERANCE
      ? 'pass'
      : 'inconclusive';

/** Why a number inside B̂'s interval is no pass: the interval is too wide to vouch for it. */
const burstTooCoarse = (what: string, b: BurstEstimate) =>
  `${what} lies in B̂'s interval ${f(b.low, 1)}…${f(b.high, 1)}, but that interval (± ${f(b.uncertainty, 1)}) is wider than ± ${BURST_MAX_TOLERANCE} tokens: too coarse a measurement to vouch for it`;

/** `why` only on an inconclusive verdict. */
const whyIf = (status: VerdictStatus, why: () => string) =>
  status === 'inconclusive' ? { why: why() } : {};

/**
 * The rate verdict, built like the burst one: the plan outside r̂'s 95 % interval (floored at
 * ±1 % for clock error) fails; inside it passes only when the interval is no wider than ±3 % —
 * a coarser measurement cannot vouch for the plan, so it is inconclusive rather than a pass.
 */
export function judgeRateStatus(
  rate: Pick<RateEstimate, 'perS' | 'relUncertainty'>,
  planPerS: number,
): { status: VerdictStatus; rel: number; tol: number } {
  const rel = rate.perS / planPerS - 1;
  const tol = Math.max(RATE_MIN_TOLERANCE, rate.relUncertainty);
  if (!Number.isFinite(rel) || !Number.isFinite(tol)) return { status: 'inconclusive', rel, tol };
  if (Math.abs(rel) > tol) return { status: 'fail', rel, tol };
  return { status: tol <= RATE_MAX_TOLERANCE ? 'pass' : 'inconclusive', rel, tol };
}

/** Judges scope from S5: a fresh second key answers as a full bucket; a shared one is drained. */
export function judgeScope(agg: Aggregates, burst: number): ScopeReport {
  const s5 = agg.S5;
  if (!s5) return { scope: 'unknown', evidence: ['S5 not run: only one key of the workspace'] };
  const first = s5.firstRemaining;
  const ev = [
    `second key right after the first key was drained: ${s5.ok} accepted, ${s5.rej} × 429, first Remaining ${first ?? 'n/a'} (plan burst ${burst})`,
  ];
  // A refill token or two may land between S1 and S5; a drained shared bucket still 429s most.
  if (s5.rej > 0 && s5.ok <= 2)
    return { scope: 'shared', evidence: [...ev, 'draining key A drained key B'] };
  if (s5.rej === 0 && first !== undefined && first >= burst - 1 - s5.sent)
    return { scope: 'per-key', evidence: [...ev, 'key B has its own full bucket'] };
  if (s5.rej === 0) return { scope: 'per-key', evidence: ev };
  return { scope: 'unknown', evidence: [...ev, 'mixed answers'] };
}

/**
 * Another workspace's key right after key A was drained (S5w), against what its own bucket held
 * just before (S0w, beside S0). "Limits apply per workspace, per API key": however that reads
 * within a workspace (U25, the scope verdict), another workspace's key has a bucket of its own,
 * so a 429 there while its own bucket had room is key A's drain refusing it — documented. A 429
 * when its own bucket was already low (the key used elsewhere) proves nothing: inconclusive.
 */
export function judgeOtherWorkspace(agg: Aggregates, schedule: Schedule): Verdict {
  const head = verdictRule('other-workspace');
  const expected = `no 429 on another workspace's key right after key A was drained, while its own bucket has room`;
  const before = agg.S0w;
  const after = agg.S5w;
  const inconclusive = (observed: string, why: string): Verdict => ({
    ...head,
    status: 'inconclusive',
    expected,
    observed,
    why,
  });
  if (!schedule.phases.some((p) => p.name === 'S5w')) {
    const why =
      'needs HARNESS_OTHER_WORKSPACE_KEY (a key of another workspace, none of whose keys this run loads)';
    return { ...head, status: 'skipped', expected, observed: `not run: ${why}`, why };
  }
  if (!after)
    return inconclusive(
      'S5w not sent',
      "the run ended before the requests on another workspace's key were sent",
    );
  const other = after.other + (before?.other ?? 0);
  if (other > 0)
    return inconclusive(
      `${other} answer(s) to another workspace's key neither 2xx nor 429`,
      "another workspace's key was not answered 2xx or 429 (401, 5xx, transport errors): is HARNESS_OTHER_WORKSPACE_KEY a valid key?",
    );
  const room = before && before.ok > 0 ? before.firstRemaining : undefined;
  const seen = `${after.ok} accepted, ${after.rej} × 429 of ${after.sent} on another workspace's key right after key A was drained (its own bucket had ${room ?? 'n/a'} left just before)`;
  if (after.rej === 0) return { ...head, status: 'pass', expected, observed: seen };
  if (room !== undefined && room >= after.sent)
    return { ...head, status: 'fail', expected, observed: seen };
  return inconclusive(
    seen,
    !before
      ? "the probe of another workspace's key before key A's burst got no answer: whether its own bucket had room is unknown"
      : before.rej > 0
        ? "another workspace's key was refused already before key A's burst: its own bucket was empty (used elsewhere), so a 429 after it proves nothing"
        : room === undefined
          ? "another workspace's key answered without X-RateLimit-Remaining: whether its own bucket had room cannot be told"
          : `another workspace's key had only ${room} request(s) left before key A's burst: its own use may have refused it`,
  );
}

type Judge = (run: JudgedRun) => Verdict;

/**
 * A failed verdict read through the token bucket (U24) when the run did not show one: what the
 * bucket stands for in its judgement (`reads`), and the limiter the run showed instead. Unchanged
 * when the verdict did not fail or the limiter showed as a token bucket — then the judgement rests
 * on the deployment's own answers.
 */
function throughBucket(v: Verdict, limiter: LimiterClassification, reads: string): Verdict {
  if (v.status !== 'fail' || limiter.algorithm === 'token-bucket') return v;
  const shown =
    limiter.algorithm === 'unknown'
      ? 'no limiter model the recoveries fit'
      : `a ${limiter.algorithm} (${limiter.confidence} confidence)`;
  return {
    ...v,
    leansOn: {
      gap: 'U24',
      why: `${reads}, but the run showed ${shown}: how the burst applies is not shown in the docs`,
    },
  };
}

const limitHeader: Judge = ({ limits, agg }) => {
  const sent = sum(agg, (p) => p.sent);
  const limitBad = sum(agg, (p) => p.limitBad);
  const lmin = Math.min(...ownPhases(agg).map((p) => p.limitMin ?? Number.POSITIVE_INFINITY));
  const lmax = Math.max(...ownPhases(agg).map((p) => p.limitMax ?? Number.NEGATIVE_INFINITY));
  return {
    ...verdictRule('limit-header'),
    status: sent === 0 ? 'skipped' : limitBad === 0 ? 'pass' : 'fail',
    expected: `${limits.ratePerMin} (${limits.rateSource})`,
    observed:
      limitBad === 0
        ? `${limits.ratePerMin} on all ${sent}`
        : `${limitBad} of ${sent} differ (seen ${Number.isFinite(lmin) ? lmin : 'none'}…${Number.isFinite(lmax) ? lmax : 'none'})`,
  };
};

const freshKey: Judge = ({ limits, agg }) => {
  const B = limits.burst;
  // The highest Remaining of the burst, not the first answer's: answers overtake each other.
  const firstRem = agg.S1?.remOkMax;
  return {
    ...verdictRule('fresh-key'),
    status: firstRem === undefined ? 'inconclusive' : firstRem === B - 1 ? 'pass' : 'fail',
    ...(firstRem === undefined
      ? { why: 'no answer of the burst phase carried X-RateLimit-Remaining' }
      : {}),
    expected: `${B - 1}`,
    observed:
      firstRem === undefined
        ? 'no Remaining header on the first answer'
        : `${firstRem}${
            firstRem < B - 1
              ? ' — the bucket was not full (B̂ biased low) or is smaller than the plan'
              : firstRem > B - 1
                ? ' — the deployment announces more than the plan burst'
                : ''
          }`,
  };
};

const burstVerdict: Judge = (run) =>
  throughBucket(
    burstByBucket(run),
    run.limiter,
    'B̂ counts the burst as a full token bucket refilled at r̂ while it ran',
  );

const burstByBucket: Judge = ({ limits, agg, burst }) => {
  const B = limits.burst;
  const head = verdictRule('burst');
  if (!burst || burst.value === null) {
    // No 429 at all: either the burst is above what S1 sent, or S1 ran so slowly that refills
    // kept up — only the first is a finding.
    const s1 = agg.S1;
    const span =
      s1?.lastRecvS !== undefined && s1.firstSentS !== undefined ? s1.lastRecvS - s1.firstSentS : 0;
    const surelyAbove = burst !== undefined && burst.low - (limits.ratePerMin / 60) * span > B;
    const status: VerdictStatus = burst && surelyAbove ? 'fail' : 'inconclusive';
    return {
      ...head,
      status,
      expected: `${B}`,
      observed: burst
        ? `no 429 in S1 (${burst.low} accepted over ${f(span)} s): ${surelyAbove ? `burst above ${B}` : 'S1 too slow to drain the bucket'}`
        : 'S1 did not run',
      ...whyIf(status, () =>
        burst
          ? 'the burst phase met no 429, and it ran too slowly for that to prove a larger burst (refills kept up)'
          : 'the burst phase did not run',
      ),
    };
  }
  const status = burstStatus(B, burst);
  return {
    ...head,
    status,
    ...whyIf(status, () => burstTooCoarse(`the plan's burst ${B}`, burst)),
    expected: `${B} within B̂'s interval, itself no wider than ± ${BURST_MAX_TOLERANCE} (${limits.burstSource})`,
    observed: `B̂ = ${f(burst.value)} ± ${f(burst.uncertainty)} (${burst.acceptedInBurst} accepted in the burst, ${burst.acceptedBeforeFirst429} before the first 429; refill correction ${f(burst.refillCorrection)})`,
  };
};

const rateVerdict: Judge = (run) =>
  throughBucket(
    rateByBucket(run),
    run.limiter,
    'r̂ is the refill rate of a drained token bucket, read from the accepts of the overdrive phase',
  );

const rateByBucket: Judge = ({ limits, rate }) => {
  const head = verdictRule('rate');
  if (rate.method === 'none')
    return {
      ...head,
      status: 'inconclusive',
      expected: `${limits.ratePerMin}/min`,
      observed: `too few accepts in S2 (${rate.n})`,
      why: `the overdrive phase got ${rate.n} requests accepted: too few to fit a rate`,
    };
  const { status, rel, tol } = judgeRateStatus(rate, limits.ratePerMin / 60);
  return {
    ...head,
    status,
    ...whyIf(status, () =>
      Number.isFinite(rel) && Number.isFinite(tol)
        ? `${limits.ratePerMin}/min lies in r̂'s interval, but that interval (± ${f(tol * 100, 1)} %) is wider than ± ${RATE_MAX_TOLERANCE * 100} %: too coarse a measurement to vouch for it`
        : 'the accepts of the overdrive phase gave no finite rate',
    ),
    expected: `${limits.ratePerMin}/min within r̂'s interval (± ${f(tol * 100, 1)} %), itself no wider than ± ${RATE_MAX_TOLERANCE * 100} %`,
    observed: `r̂ = ${f(rate.perMin, 1)}/min (${rel >= 0 ? '+' : ''}${f(rel * 100, 1)} %), 95 % CI ${f(rate.ciLowPerS * 60, 1)}…${f(rate.ciHighPerS * 60, 1)}, ${rate.method} over ${rate.n} accepts`,
  };
};

/** The plan rate a phase's span is worth, below which `rate-held` cannot tell starving from chance. */
const RATE_HELD_MIN_DUE = 4;

/**
 * The plan rate for a client that does not slow down: S2 sends at 4r on the key S1 drained, and
 * ignores every 429 and its Retry-After. The docs' requests per minute are what a key is allowed,
 * not a reward for backing off: however the deployment counts the refused requests, the client
 * gets the plan's rate over time. A token bucket grants it as it refills, r per second — S2 holds
 * r × its span, give or take the token it started with; r̂ (`rate`) measures that slope, but only
 * from enough accepts: a limiter that never grants a client again once it sends faster than the
 * refill leaves r̂ with none (inconclusive), and only this count sees it. Half the plan's
 * rate is the floor: what a limiter a little slow (`rate`'s verdict) still grants, never what a
 * starved client gets.
 *
 * A window limiter (U24) drained by S1 grants nothing until its boundary, however the client
 * sends, and a 15 s phase may end before one: its S2 count says nothing of the rate over time. So
 * a failure rests on the deployment's own answers only where the run showed a token bucket —
 * classified one, or shown to every client that kept to the rate (S2b without a 429, the
 * recoveries after idling proportional to the idle time), which a window shows neither of.
 */
const rateHeld: Judge = ({ limits, agg: { S2: s2 }, schedule, limiter }) => {
  const head = verdictRule('rate-held');
  const span =
    s2?.firstSentS !== undefined && s2.lastSentS !== undefined ? s2.lastSentS - s2.firstSentS : 0;
  const due = schedule.r * span;
  const expected = `at least ${f(due / 2, 1)} accepted: half the ${f(due, 1)} that ${limits.ratePerMin}/min grants over S2's ${f(span, 1)} s`;
  if (!s2)
    return {
      ...head,
      status: 'inconclusive',
      expected,
      observed: 'S2 not sent',
      why: 'the run ended before the overdrive phase was sent',
    };
  const observed = `${s2.ok} of ${s2.sent} accepted at 4r on the drained key, every 429 ignored`;
  if (due < RATE_HELD_MIN_DUE)
    return {
      ...head,
      status: 'inconclusive',
      expected,
      observed,
      why: `S2 spanned ${f(span, 1)} s, worth ${f(due, 1)} requests at the plan rate: too few to tell a starved client from chance`,
    };
  const v: Verdict = { ...head, status: s2.ok >= due / 2 ? 'pass' : 'fail', expected, observed };
  if (v.status !== 'fail' || limiter.algorithm === 'token-bucket' || limiter.keptToRate) return v;
  return {
    ...v,
    leansOn: {
      gap: 'U24',
      why: `a drained window grants nothing until its boundary however the client sends, and the run showed no token bucket (${limiter.algorithm}; nor to the clients that kept to the rate: S2b without a 429, recoveries proportional to the idle time): how the burst applies is not shown in the docs`,
    },
  };
};

const no429BelowRate: Judge = ({ agg: { S2b: s2b }, limiter }) =>
  throughBucket(
    {
      ...verdictRule('no-429-below-rate'),
      status: !s2b ? 'skipped' : s2b.rej === 0 ? 'pass' : 'fail',
      expected: '0 × 429',
      observed: s2b ? `${s2b.rej} × 429 of ${s2b.sent}` : 'S2b not run',
    },
    limiter,
    'the under-rate phase follows a drain after a pause of two refill intervals, room only a token bucket refilled at the rate has',
  );

const retryAfterPresent: Judge = ({ agg }) => {
  const rej = sum(agg, (p) => p.rej);
  const raMissing = sum(agg, (p) => p.retryAfterMissing);
  return {
    ...verdictRule('retry-after-present'),
    status: rej === 0 ? 'skipped' : raMissing === 0 ? 'pass' : 'fail',
    expected: 'Retry-After (seconds or HTTP-date) on every 429',
    observed: `${raMissing} of ${rej} × 429 without a usable Retry-After`,
  };
};

const retryAfterHonoured: Judge = ({ agg: { S6: s6 } }) => {
  const retried = s6 !== undefined && s6.retryOk + s6.retryFail > 0;
  return {
    ...verdictRule('retry-after-honoured'),
    status: !retried ? 'inconclusive' : s6.retryFail === 0 ? 'pass' : 'fail',
    ...(!retried
      ? {
          why: !s6
            ? 'the retry phase did not run'
            : s6.rej === 0
              ? 'the retry phase met no 429 whose Retry-After it could honour'
              : 'its 429 carried no Retry-After short enough to wait out (≤ 120 s)',
        }
      : {}),
    expected: 'the retry is accepted',
    observed: !s6
      ? 'S6 not run'
      : !retried
        ? s6.rej === 0
          ? 'no 429 to honour'
          : 'no usable Retry-After to wait for'
        : `retry ${s6.retryOk ? 'accepted' : 'rejected'} after waiting ${s6.retryAfterMax ?? 'n/a'} s`,
  };
};

const remainingZeroOn429: Judge = ({ agg }) => {
  const rej = sum(agg, (p) => p.rej);
  const nz = sum(agg, (p) => p.remainingNonZeroOn429);
  return {
    ...verdictRule('remaining-zero-on-429'),
    status: rej === 0 ? 'skipped' : nz === 0 ? 'pass' : 'fail',
    expected: '0',
    observed: `${nz} of ${rej} × 429 with another value`,
  };
};

const remainingNeverRises: Judge = ({ agg }) => {
  const rises = sum(agg, (p) => p.remainingRises);
  return {
    ...verdictRule('remaining-never-rises'),
    status: rises === 0 ? 'pass' : 'fail',
    expected: 'no rise between causally ordered answers other than refilled tokens',
    observed: `${rises} rise(s)`,
  };
};

const remainingMatchesBurst: Judge = ({ agg, burst }) => {
  const remMax = agg.S1?.remOkMax;
  const measured = burst && burst.value !== null ? burst : undefined;
  const status =
    remMax === undefined || !measured ? 'inconclusive' : burstStatus(remMax + 1, measured);
  return {
    ...verdictRule('remaining-matches-burst'),
    status,
    expected: measured ? `${f(measured.low - 1)}…${f(measured.high - 1)}` : 'n/a',
    observed:
      remMax === undefined
        ? 'no Remaining header'
        : `highest Remaining in the burst ${remMax} (so ${remMax + 1} tokens)`,
    ...whyIf(status, () =>
      remMax === undefined
        ? 'no accepted answer of the burst phase carried X-RateLimit-Remaining'
        : !measured
          ? 'no measured burst B̂ to compare it with (the burst phase met no 429)'
          : burstTooCoarse(
              `the highest Remaining ${remMax} means ${remMax + 1} tokens, which`,
              measured,
            ),
    ),
  };
};

const resetUnitVerdict: Judge = ({ resetUnit }) => ({
  ...verdictRule('reset-unit'),
  status:
    resetUnit.unit === 'epoch-s' && resetUnit.agreement >= 0.95
      ? 'pass'
      : resetUnit.unit === 'missing'
        ? 'fail'
        : resetUnit.unit === 'epoch-s'
          ? 'inconclusive'
          : 'fail',
  ...(resetUnit.unit === 'epoch-s' && resetUnit.agreement < 0.95
    ? {
        why: `epoch seconds fit only ${f(resetUnit.agreement * 100, 0)} % of the answers; 95 % are needed to tell the unit`,
      }
    : {}),
  expected: 'epoch-s',
  observed: `${resetUnit.unit} (${f(resetUnit.agreement * 100, 0)} % of responses)`,
});

const algorithm: Judge = ({ limiter }) => ({
  ...verdictRule('algorithm'),
  status:
    limiter.algorithm === 'token-bucket'
      ? 'pass'
      : limiter.algorithm === 'unknown'
        ? 'inconclusive'
        : 'fail',
  ...(limiter.algorithm === 'unknown'
    ? {
        why: 'the recoveries after the idle periods (20 s, 40 s) fit no limiter model well enough to name one',
      }
    : {}),
  expected: 'token-bucket',
  observed: `${limiter.algorithm} (${limiter.confidence} confidence${limiter.alternatives.length ? `; or ${limiter.alternatives.join(', ')}` : ''})`,
});

const scopeVerdict: Judge = ({ scope }) => ({
  ...verdictRule('scope'),
  status: scope.scope === 'per-key' ? 'pass' : scope.scope === 'shared' ? 'fail' : 'skipped',
  expected: 'per-key',
  observed: scope.scope,
});

const otherWorkspace: Judge = ({ agg, schedule }) => judgeOtherWorkspace(agg, schedule);

const noDroppedRequests: Judge = ({ dropped, truncated }) => ({
  ...verdictRule('no-dropped-requests'),
  status: dropped === 0 && !truncated ? 'pass' : 'fail',
  expected: '0 dropped',
  observed: `${dropped} dropped${truncated ? `; ${truncated}` : ''}`,
});

const only200Or429: Judge = ({ agg }) => {
  const other = sum(agg, (p) => p.other);
  return {
    ...verdictRule('only-200-or-429'),
    status: other === 0 ? 'pass' : 'fail',
    expected: '2xx/3xx or 429',
    observed: `${other} other answer(s) (transport errors, 401, 5xx…)`,
  };
};

/** In VERDICT_IDS order: reports list the verdicts as judged. */
const JUDGES: readonly Judge[] = [
  limitHeader,
  freshKey,
  burstVerdict,
  rateVerdict,
  rateHeld,
  no429BelowRate,
  retryAfterPresent,
  retryAfterHonoured,
  remainingZeroOn429,
  remainingNeverRises,
  remainingMatchesBurst,
  resetUnitVerdict,
  algorithm,
  scopeVerdict,
  otherWorkspace,
  noDroppedRequests,
  only200Or429,
];

export function judgeVerdicts(run: JudgedRun): Verdict[] {
  return JUDGES.map((judge) => {
    const v = judge(run);
    // Leaning on a gap the rule does not declare is a harness bug, as for a check (verdict.ts).
    if (v.leansOn && !verdictAssumptions(v.id).includes(v.leansOn.gap))
      throw new Error(`verdict ${v.id} judged on ${v.leansOn.gap}, not among its assumptions`);
    return v;
  });
}
