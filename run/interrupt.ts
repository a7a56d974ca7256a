/**
 * What ends a `harness run` from outside, and how: SIGINT (Ctrl-C: the terminal signals the whole
 * foreground group), SIGTERM (CI's `timeout`, a cancelled job, `kill`), SIGHUP (the terminal went
 * away), and — started by npm or npx — the npm process going away.
 *
 * The first of them aborts the run (its reason, "interrupted by SIGTERM", becomes the verdict's)
 * and stops every child process group at once (core/process/process-group.ts): Playwright and k6
 * get SIGINT, which they answer by stopping and writing what they have; 2 s later every group is
 * SIGKILLed, so a child that cannot answer — a worker whose event loop is blocked — still ends.
 * The area running returns what it found, the others are marked not run, the reports are written,
 * the process exits 2: about 3 s in all. A second signal (not the echo of the first: npm forwards
 * the signal a terminal or `timeout` also sent to the whole group) SIGKILLs the children at once;
 * if the reports are still not written 10 s after the first, the process exits anyway.
 *
 * Why the parent watch: npm and npx run the harness under `sh -c`, and when npm is signalled it
 * passes the signal to that shell only, which dies without passing it on — the harness would run
 * on, orphaned, with every child. So under npm (npm_command is set) a parent that changed (we
 * were re-parented) counts as an interrupt too. Not elsewhere: a harness started in the
 * background of a shell that then exits is meant to go on.
 */
import { closeAllGroups } from '../core/process/process-group.ts';

/** Between the children's graceful signal and SIGKILL, after an interrupt. */
export const CHILD_GRACE_MS = 2_000;
/** A signal this soon after the first is the same request, delivered twice. */
const ECHO_MS = 1_000;
/** The reports not written by then: exit anyway. */
const BACKSTOP_MS = 10_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interrupts {
  /** Aborted at the first interrupt; its reason says by what. */
  signal: AbortSignal;
  /** Stops watching (the run is over: a signal now ends the process the default way). */
  dispose(): void;
}

export function watchInterrupts(log: (line: string) => void): Interrupts {
  const ac = new AbortController();
  let firstAt = 0;
  const interrupt = (reason: string) => {
    firstAt = Date.now();
    log(
      `harness run: ${reason}: stopping its processes and writing the reports (again to kill now)`,
    );
    ac.abort(reason);
    void closeAllGroups(CHILD_GRACE_MS);
    setTimeout(() => {
      log(`harness run: the reports were not written within ${BACKSTOP_MS / 1000} s; exiting`);
      void closeAllGroups(0);
      process.exit(2);
    }, BACKSTOP_MS).unref();
  };
  const onSignal = (sig: NodeJS.Signals) => {
    if (!ac.signal.aborted) interrupt(`interrupted by ${sig}`);
    else if (Date.now() - firstAt > ECHO_MS) {
      log(`harness run: ${sig} again: killing its processes now`);
      void closeAllGroups(0);
    }
  };
  for (const s of SIGNALS) process.on(s, onSignal);

  let watch: NodeJS.Timeout | undefined;
  if (process.env.npm_command !== undefined) {
    const parent = process.ppid;
    watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      if (!ac.signal.aborted) interrupt('interrupted: the npm/npx process that started it is gone');
    }, 250);
    watch.unref();
  }
  return {
    signal: ac.signal,
    dispose: () => {
      for (const s of SIGNALS) process.off(s, onSignal);
      clearInterval(watch);
    },
  };
}
