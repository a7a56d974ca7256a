/**
 * Readings of the rate-limit gaps (U22–U25): what a refused request carries, the unit of
 * X-RateLimit-Reset, how the burst applies, and whose requests share a limit. The plan table and
 * the three headers' meanings are documented and stay; only what the docs leave open changes.
 * Each shows in the load area (a verdict of load/lib/verdicts.ts), which the readings test of
 * the whole gate with load (test/load/readings-gate.test.ts) runs.
 */
import { VERDICT_RULES, verdictAssumptions } from '../../core/checks/load-verdicts.ts';
import type { Reading } from './reading.ts';

export interface LimitBehaviour {
  /**
   * U22: a 429's Retry-After — the whole `seconds` until a request would be accepted (at least
   * 1), or `none` (X-RateLimit-Remaining 0 and Reset still say when to come back).
   */
  retryAfter: 'seconds' | 'none';
  /**
   * U23: X-RateLimit-Reset, the time the key's limit is whole again, as `epoch-s`, `epoch-ms`, or
   * `delta-s` (the seconds from now until then).
   */
  resetUnit: 'epoch-s' | 'epoch-ms' | 'delta-s';
  /**
   * U24: how the burst applies, each with the plan's capacity (burst) and long-run rate:
   * `token-bucket` (capacity burst, refilled at rate/60 a second), `fixed-window` (burst requests
   * per fixed window of burst/rate minutes), `sliding-window` (at most burst accepted in any
   * trailing window of burst/rate minutes).
   */
  limiter: 'token-bucket' | 'fixed-window' | 'sliding-window';
  /** U25: whose requests share one limit: each `key`'s its own, or every key of a `workspace`. */
  limitScope: 'key' | 'workspace';
}

export const LIMIT_DEFAULTS: LimitBehaviour = {
  retryAfter: 'seconds',
  resetUnit: 'epoch-s',
  limiter: 'token-bucket',
  limitScope: 'key',
};

/**
 * What reports another limiter: every load verdict whose mismatch names U24 — the assumed ones of
 * that gap (the algorithm, when the recoveries fit a window model well enough to name it; the
 * Remaining a fresh key announces, how it falls) and the documented ones read through the token
 * bucket, which lean on it. Which of them a window trips depends on where its boundary falls.
 */
const U24_SHOWS = VERDICT_RULES.filter(
  (v) => ('gap' in v && v.gap === 'U24') || verdictAssumptions(v.id).includes('U24'),
).map((v) => `load.${v.id}`);

export const LIMIT_READINGS: Reading<LimitBehaviour>[] = [
  {
    name: 'U22=no-retry-after',
    gap: 'U22',
    does: 'a 429 carries no Retry-After: X-RateLimit-Remaining 0 and X-RateLimit-Reset say when to come back',
    set: { retryAfter: 'none' },
    shows: ['load.retry-after-present'],
  },
  {
    name: 'U23=epoch-ms',
    gap: 'U23',
    does: 'X-RateLimit-Reset in epoch milliseconds',
    set: { resetUnit: 'epoch-ms' },
    shows: ['load.reset-unit'],
  },
  {
    name: 'U23=delta-seconds',
    gap: 'U23',
    does: 'X-RateLimit-Reset in seconds from now until the limit is whole again',
    set: { resetUnit: 'delta-s' },
    shows: ['load.reset-unit'],
  },
  {
    name: 'U24=fixed-window',
    gap: 'U24',
    does: 'the burst is a fixed window’s quota: `burst` requests per window of burst/rate minutes (Team 200 per 100 s), whole again at each boundary',
    set: { limiter: 'fixed-window' },
    shows: U24_SHOWS,
  },
  {
    name: 'U24=sliding-window',
    gap: 'U24',
    does: 'the burst is a sliding log’s quota: at most `burst` requests accepted in any trailing window of burst/rate minutes',
    set: { limiter: 'sliding-window' },
    shows: U24_SHOWS,
  },
  {
    name: 'U25=per-workspace',
    gap: 'U25',
    does: 'one limit per workspace: every key of a workspace takes from one bucket (another workspace’s keys still have their own)',
    set: { limitScope: 'workspace' },
    shows: ['load.scope'],
  },
];
