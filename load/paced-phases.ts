/**
 * The paced phases of a plan's schedule (S1–S4, S5 and S5w beside S2), sent open-loop by the
 * pacer: request i of a phase is due at its start + i/λ, whatever the responses do.
 */
import type { Phase, Schedule } from './lib/index.ts';
import { performance, waitUntil } from '../core/http/pacer.ts';
import type { PlanSender } from './plan-sender.ts';

/**
 * Sends every paced phase; returns each request's send time minus its due time, ms. Phases follow
 * one another; a phase that ends late (slow responses) shifts the next ones so they never
 * overlap on the key, and idle periods are never shorter than planned.
 */
export async function runPacedPhases(
  sender: PlanSender,
  schedule: Schedule,
  signal: AbortSignal,
): Promise<number[]> {
  const lagsMs: number[] = [];
  let shiftMs = 0;
  const paced = schedule.phases.filter((p) => p.kind !== 'probe' && p.kind !== 'retry');
  for (let i = 0; i < paced.length; ) {
    // Phases planned to start together run side by side: S5 (second key) and S5w (another
    // workspace's key) beside S2 — they must come right after S1, and have buckets of their own.
    const together = [paced[i]!];
    while (paced[++i]?.startS === together[0]!.startS) together.push(paced[i]!);
    const start = sender.t0 + shiftMs;
    const late = await Promise.all(together.map((p) => runPhase(sender, p, start, lagsMs, signal)));
    shiftMs += Math.max(0, ...late);
  }
  return lagsMs;
}

/** Sends one phase from `start` (wall ms); returns how late it ended, ms (negative: early). */
async function runPhase(
  sender: PlanSender,
  phase: Phase,
  start: number,
  lagsMs: number[],
  signal: AbortSignal,
): Promise<number> {
  const pending: Array<Promise<unknown>> = [];
  let burstSinceYield = 0;
  // The progress line names key A's phase: the side phases beside S2 (S5, S5w) last
  // milliseconds, and whichever first send came last would otherwise name S2's 15 s.
  const named = phase.key === 0;
  for (let i = 0; i < phase.count; i++) {
    const due = start + phase.startMs + (i * 1000) / phase.ratePerRealS;
    const now = performance.now();
    // The idle periods before S3 and S4 are long: the progress line says what it waits for.
    if (i === 0 && named) {
      sender.idleS = phase.idleBeforeS > 0 ? phase.idleBeforeS : undefined;
      if (due - now > 1000) {
        sender.phase = phase.name;
        sender.waiting = true;
      }
    }
    if (due > now) {
      await waitUntil(due, signal);
      burstSinceYield = 0;
    } else if (++burstSinceYield >= 16) {
      // Behind schedule: still let responses in now and then.
      await new Promise((r) => setImmediate(r));
      burstSinceYield = 0;
    }
    if (i === 0 && named) {
      sender.phase = phase.name;
      sender.waiting = false;
    }
    lagsMs.push(performance.now() - due);
    pending.push(sender.send(phase, i));
  }
  await Promise.all(pending);
  const plannedEnd = start + phase.startMs + phase.durationMs;
  return performance.now() - plannedEnd;
}
