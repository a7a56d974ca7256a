/** Default base schedule (U14): six attempts over about 12.6 minutes. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 5000, 30000, 120000, 600000];

/** Default jitter fraction. */
export const DEFAULT_JITTER = 0.2;

/**
 * Delay before retry number `retryIndex` (0 = the wait after the first attempt), or `undefined`
 * when the schedule is exhausted. Jitter only shortens the wait, drawn uniformly from
 * `(base * (1 - jitter), base]`, so retries of many deliveries that failed together spread out
 * without ever exceeding the documented schedule.
 */
export function retryDelay(
  retryIndex: number,
  schedule: readonly number[],
  jitter: number,
  random: () => number,
): number | undefined {
  const base = schedule[retryIndex];
  if (base === undefined) return undefined;
  const j = Math.min(1, Math.max(0, jitter));
  return base * (1 - j * random());
}
