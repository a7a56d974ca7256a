/**
 * Did a gate run's key budget bind — could the run only have kept its reserve by waiting?
 *
 * Tests that assert "the run waited for the refill" must not assume it: whether a run has to wait
 * depends on how long its work takes, and on a slow CI machine the refill during a longer run
 * covers what a fast machine had to wait for (stop 31 was refused for exactly that). Without any
 * wait, the key could have given the run at most what was above the reserve when it started plus
 * the refill over the run's time not spent waiting; a run that sent more with the key (less the
 * 429s a test allows) can only have kept the reserve by waiting. When it did not bind, "it waited"
 * is not a claim to make.
 */
import type { Summary } from '../../report/summary.ts';

export interface Binding {
  binding: boolean;
  /** What the key could have given the run without waiting (above its reserve). */
  supply: number;
  keySent: number;
  unpacedS: number;
  /** One line for a diagnostic or an assertion message. */
  why: string;
}

/**
 * `perS`: the key's real refill per second (the plan's Limit/60 times the deployment's time
 * scale); `allowed429`: the 429s the test tolerates (each is a request the bucket refused).
 */
export function budgetBinding(summary: Summary, perS: number, allowed429 = 10): Binding {
  const req = summary.requests!;
  const budget = req.estimate?.budget;
  const keySent = req.refill?.keySent ?? req.estimate?.key ?? 0;
  const unpacedS = Math.max(0, summary.durationMs / 1000 - req.waitedS);
  const above = (budget?.remaining ?? 0) - (budget?.reserve ?? 0);
  const supply = above + perS * unpacedS;
  const binding = budget !== undefined && keySent - allowed429 > supply;
  return {
    binding,
    supply,
    keySent,
    unpacedS,
    why: `sent ${keySent} with the key; without waiting it could have had ${Math.round(supply)} above the reserve (${budget?.remaining ?? '?'} Remaining at the start, ${budget?.reserve ?? '?'} reserve, ${perS}/s over ${unpacedS.toFixed(1)} s not spent waiting); waited ${req.waitedS} s`,
  };
}
