/**
 * One area of `harness run`, run so that the run always reaches its reports: a throw becomes
 * verdict `error` with its reason — one line, redacted, no stack (HARNESS_DEBUG=1 logs it) — and
 * the run's time limit, or an interrupt (SIGINT/SIGTERM, run/interrupt.ts), stops the area where
 * it is. The other areas' findings are untouched.
 */
import { type AreaSummary, errorArea, reasonOf } from '../core/area.ts';
import { envVar } from '../core/variables.ts';
import { redact } from '../core/redact.ts';

export interface RunClock {
  /** Epoch ms the run must end by. */
  deadlineAt: number;
  /** The limit as the user set it, for reasons ("the run's time limit (30 s)"). */
  limitName: string;
  /** Aborted when the run is interrupted; its reason says by what ("interrupted by SIGTERM"). */
  interrupt?: AbortSignal;
}

/**
 * The run's clock. `onStop` is called once, with the reason, when the run must stop early — at
 * the deadline or at the interrupt — so that the owner of the process ends its children then
 * (the same path for both); `dispose` cancels that at the end of the run.
 */
export function runClock(
  /** Seconds (as --max-seconds names it), a limit with its own name, or none. */
  limit: number | { seconds: number; name: string } | undefined,
  started = Date.now(),
  o: { interrupt?: AbortSignal; onStop?: (reason: string) => void } = {},
): RunClock & { dispose(): void } {
  const { seconds, name } =
    typeof limit === 'number'
      ? {
          seconds: limit,
          name: `the run's time limit (--max-seconds / HARNESS_RUN_MAX_SECONDS ${limit} s)`,
        }
      : (limit ?? { seconds: Number.POSITIVE_INFINITY, name: "the run's time limit" });
  const clock: RunClock = {
    deadlineAt: started + seconds * 1000,
    limitName: name,
    ...(o.interrupt ? { interrupt: o.interrupt } : {}),
  };
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    o.onStop?.(stopReason(clock) ?? `${clock.limitName} was reached`);
  };
  const timer = o.onStop ? later(stop, msLeft(clock)) : undefined;
  timer?.unref();
  if (o.interrupt?.aborted) stop();
  else o.interrupt?.addEventListener('abort', stop, { once: true });
  return {
    ...clock,
    dispose: () => {
      clearTimeout(timer);
      o.interrupt?.removeEventListener('abort', stop);
    },
  };
}

export const msLeft = (c: RunClock) => c.deadlineAt - Date.now();

/** A timer `ms` from now; none for no limit (setTimeout would take Infinity for 1 ms). */
function later(f: () => void, ms: number): NodeJS.Timeout | undefined {
  return ms < 2 ** 31 ? setTimeout(f, Math.max(0, ms)) : undefined;
}

/** Why the run must go no further (an interrupt, the time limit), or undefined. */
export function stopReason(c: RunClock): string | undefined {
  if (c.interrupt?.aborted) return String(c.interrupt.reason);
  if (msLeft(c) <= 0) return `${c.limitName} was reached`;
  return undefined;
}

/** `p`'s value, or undefined as soon as the run is interrupted (a preflight may take 10 s). */
export function unlessInterrupted<T>(clock: RunClock, p: Promise<T>): Promise<T | undefined> {
  const signal = clock.interrupt;
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * After an interrupt, how long a step that stops itself may take to return what it found: its
 * children get their graceful signal at once and SIGKILL 2 s later (run/interrupt.ts), so the
 * contract area has read its results by then. An in-process area (fuzz, the Node load driver) is
 * not waited for: it is left behind, and the process exits after the reports.
 */
const INTERRUPT_WAIT_MS = 3_000;

export interface Guarded {
  area: AreaSummary;
  /** The run's time limit or an interrupt stopped (or prevented) this area: the run goes no further. */
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
  const before = stopReason(clock);
  if (before) return { area: errorArea(`not run: ${before}`), outOfTime: true };
  const left = msLeft(clock);
  const timers: Array<NodeJS.Timeout | undefined> = [];
  const outOfTime = new Promise<'out-of-time'>((resolve) => {
    timers.push(later(() => resolve('out-of-time'), left + graceMs));
  });
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<'interrupted'>((resolve) => {
    // Only a step that stops itself (graceMs) returns what it found; the others are let go now.
    const wait = graceMs > 0 ? INTERRUPT_WAIT_MS : 0;
    onAbort = () => timers.push(setTimeout(() => resolve('interrupted'), wait));
    clock.interrupt?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const r = await Promise.race([step(left), outOfTime, interrupted]);
    if (r === 'out-of-time' || r === 'interrupted')
      return {
        // A timer may fire a millisecond before Date.now() reaches the deadline (timers run on
        // another clock): the limit was reached all the same.
        area: errorArea(stoppedDuring(stopReason(clock) ?? `${clock.limitName} was reached`)),
        outOfTime: true,
      };
    // An area that returned after an interrupt returned what it found; the run goes no further.
    // If it returned an error, the stop caused it (its children were just signalled: k6 exits 1
    // with no summary before the interrupt's own timer fires), so the stop is the reason given.
    const stop = stopReason(clock);
    if (stop && r.verdict === 'error' && !r.error?.startsWith('stopped: '))
      return { area: errorArea(stoppedDuring(stop), r), outOfTime: true };
    return { area: r, outOfTime: clock.interrupt?.aborted === true };
  } catch (e) {
    const stop = stopReason(clock);
    if (stop) return { area: errorArea(stoppedDuring(stop)), outOfTime: true };
    const reason = `${name} could not run to its end: ${reasonOf(e)}`;
    log(`  ${reason}`);
    if (envVar('HARNESS_DEBUG') && e instanceof Error && e.stack) log(redact(e.stack));
    return { area: errorArea(reason), outOfTime: clock.interrupt?.aborted === true };
  } finally {
    for (const t of timers) clearTimeout(t);
    if (onAbort) clock.interrupt?.removeEventListener('abort', onAbort);
  }
}

const stoppedDuring = (reason: string) => `stopped: ${reason} during this area`;
