/**
 * One area of `harness run`, run so that the run always reaches its reports: a throw becomes
 * verdict `error` with its reason — one line, redacted, no stack (HARNESS_DEBUG=1 logs it) — and
 * the run's time limit stops the area where it is. The other areas' findings are untouched.
 */
import { type AreaSummary, errorArea, reasonOf } from '../core/area.ts';
import { envVar } from '../core/variables.ts';
import { redact } from '../core/redact.ts';

export interface RunClock {
  /** Epoch ms the run must end by; Infinity without a limit. */
  deadlineAt: number;
  /** The limit as the user set it, for reasons ("the run's time limit (30 s)"). */
  limitName: string;
}

export function runClock(maxSeconds: number | undefined, started = Date.now()): RunClock {
  return maxSeconds === undefined
    ? { deadlineAt: Number.POSITIVE_INFINITY, limitName: "the run's time limit" }
    : {
        deadlineAt: started + maxSeconds * 1000,
        limitName: `the run's time limit (--max-seconds / HARNESS_RUN_MAX_SECONDS ${maxSeconds} s)`,
      };
}

export const msLeft = (c: RunClock) => c.deadlineAt - Date.now();

export interface Guarded {
  area: AreaSummary;
  /** The run's time limit stopped (or prevented) this area. */
  outOfTime: boolean;
}

export async function guardArea(
  name: string,
  clock: RunClock,
  step: (msLeft: number) => Promise<AreaSummary>,
  log: (line: string) => void,
  /** Extra time for a step that stops itself at the limit (and reports what it found). */
  graceMs = 0,
): Promise<Guarded> {
  const left = msLeft(clock);
  if (left <= 0)
    return { area: errorArea(`not run: ${clock.limitName} was reached`), outOfTime: true };
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<'out-of-time'>((resolve) => {
    if (Number.isFinite(left)) timer = setTimeout(() => resolve('out-of-time'), left + graceMs);
  });
  try {
    const r = await Promise.race([step(left), outOfTime]);
    if (r === 'out-of-time')
      return {
        area: errorArea(`stopped: ${clock.limitName} was reached during this area`),
        outOfTime: true,
      };
    return { area: r, outOfTime: false };
  } catch (e) {
    const reason = `${name} could not run to its end: ${reasonOf(e)}`;
    log(`  ${reason}`);
    if (envVar('HARNESS_DEBUG') && e instanceof Error && e.stack) log(redact(e.stack));
    return { area: errorArea(reason), outOfTime: false };
  } finally {
    clearTimeout(timer);
  }
}
