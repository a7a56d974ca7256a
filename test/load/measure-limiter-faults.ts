/**
 * Every limiter fault of the table (limiter-faults.ts) measured by one engine, for the tables that
 * hold the Node driver (reference-deployment.test.ts) and k6 (k6-faults.test.ts) to the same
 * expectations: three deployments at a time — client and servers share the machine, more at once
 * would make the timing dishonest — and a fault that was not caught measured once more, slower,
 * only when the machine could not keep the schedule or measured too coarsely (measureWithOneRetry).
 */
import type { LoadResult } from '../../load/lib/index.ts';
import { LIMITER_FAULTS, missedFault, tooCoarse } from './limiter-faults.ts';
import { busyReason, measureWithOneRetry } from './measure.ts';

/**
 * Measures each fault with `one(fault, slower)` (the clock `slower` times slower on the retry) and
 * records its last result in `results` and, when nothing could be concluded, why in `busy`.
 */
export async function measureLimiterFaults(
  one: (fault: string, slower: number) => Promise<LoadResult>,
  results: Map<string, LoadResult>,
  busy: Map<string, string | undefined>,
): Promise<void> {
  const names = Object.keys(LIMITER_FAULTS);
  for (let i = 0; i < names.length; i += 3) {
    const batch = names.slice(i, i + 3);
    await Promise.all(
      batch.map(async (fault) => {
        const { results: r, busy: b } = await measureWithOneRetry(
          fault,
          async (slower) => [await one(fault, slower)] as const,
          ([x]) => missedFault(fault, x),
          busyReason,
          ([x]) => tooCoarse(fault, x),
        );
        results.set(fault, r[0]);
        busy.set(fault, b);
      }),
    );
  }
}
