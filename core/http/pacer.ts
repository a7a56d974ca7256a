/**
 * The one pacer of the harness, for the load driver and the fuzzers. Open-loop pacing (load):
 * request i of a phase is due at t0 + i/λ on `performance.now()`. Waiting uses a coarse timer until ~2 ms before the due time and then yields to the event loop until
 * it is reached — never `setInterval`, whose drift accumulates. A sender that falls behind sends
 * the overdue requests at once (the schedule, not the previous send, defines the next).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldNow, setTimeout as sleep } from 'node:timers/promises';

export async function waitUntil(dueMs: number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    if (signal?.aborted) return;
    const left = dueMs - performance.now();
    if (left <= 0) return;
    if (left > 2) await sleep(left - 1.5, undefined, { signal }).catch(() => undefined);
    else await yieldNow();
  }
}

export { performance };

/**
 * Closed-loop spacing for the fuzzers: calls are at least 1/`ratePerSecond` apart, and a late
 * call does not make the next one early (receivers under test may be real, rate-limited services).
 */
export function createPacer(ratePerSecond: number): () => Promise<void> {
  if (!(ratePerSecond > 0)) throw new Error(`rate must be a positive number, got ${ratePerSecond}`);
  if (ratePerSecond === Number.POSITIVE_INFINITY) return async () => {};
  const interval = 1000 / ratePerSecond;
  let next = 0;
  return () => {
    const at = Math.max(performance.now(), next);
    next = at + interval;
    return waitUntil(at);
  };
}
