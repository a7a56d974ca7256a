/**
 * A plan-limit run's verdicts in the run report's one failure shape (core/checks/types.ts): a
 * failed verdict is a failure named `load.<verdict id>` with the provenance of its rule (a
 * documented limit, or an assumed shape such as the limiter algorithm) — assumed when an assumed
 * model decided a documented one (`leansOn`, as core/checks/verdict.ts files a check's); an inconclusive one —
 * the interval could not decide — is listed as not run, never as a pass, and so is one skipped
 * for want of a key the run was not given (it says which).
 */
import type { LoadResult } from './lib/result.ts';
import type { Failure } from '../core/checks/types.ts';

export function loadFailures(r: LoadResult): Failure[] {
  return r.verdicts
    .filter((v) => v.status === 'fail')
    .map((v) => ({
      check: `load.${v.id}`,
      provenance: v.provenance === 'documented' && !v.leansOn ? 'documented' : 'assumed',
      rule: `${r.plan}: ${v.title}`,
      received: v.observed,
      expected: v.leansOn
        ? `${v.expected} — judged on an assumption (${v.leansOn.gap}): ${v.leansOn.why}`
        : v.expected,
    }));
}

export function loadNotRun(r: LoadResult): Array<{ name: string; reason: string }> {
  return r.verdicts
    .filter((v) => v.status === 'inconclusive' || (v.status === 'skipped' && v.why))
    .map((v) => ({
      name: `${r.plan} ${v.id}`,
      reason:
        v.status === 'skipped'
          ? // Skipped for want of configuration: what it needs.
            `skipped: ${v.why}`
          : // In words why it could not decide; a JSON written before `why` existed: what was seen.
            `inconclusive: ${v.why ?? `observed ${v.observed}, expected ${v.expected}`}`,
    }));
}
