/**
 * A child process in a process group of its own, and every such group this process started — so
 * that stopping a child stops what it spawned (Playwright's workers are forked into the runner's
 * group), and so that a run that is interrupted or out of time can end all of them at once.
 *
 * Stopping is two steps: the child's graceful signal to the whole group (Playwright and k6 stop
 * on SIGINT and still write their results; the reference deployment on SIGTERM), then SIGKILL to
 * the group after a grace period — a child whose event loop is blocked (a Playwright worker in a
 * quadratic regex) ignores everything else. When the group's leader exits, the group is SIGKILLed
 * once more: whatever it left behind (a worker its crashed runner never stopped) ends with it.
 * Every group is also handed to the reaper (reaper.ts), which ends it if this process dies first.
 *
 * POSIX only (process groups; `detached` is `setsid`), like the rest of the harness's entries.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { reapIfOrphaned, released } from './reaper.ts';

export class ProcessGroup {
  readonly child: ChildProcess;
  /** Resolves once the leader has exited and the group was swept (never rejects). */
  readonly ended: Promise<void>;
  private killAt = Number.POSITIVE_INFINITY;
  private killTimer: NodeJS.Timeout | undefined;
  private signalled = false;
  /** `stop` was called — by its owner, or for everyone (closeAllGroups). */
  get stopRequested(): boolean {
    return this.signalled;
  }
  private done = false;

  constructor(
    command: string,
    args: readonly string[],
    options: Omit<SpawnOptions, 'detached'>,
    /** What asks this child to stop and still finish its output. */
    readonly gracefulSignal: NodeJS.Signals = 'SIGTERM',
  ) {
    this.child = spawn(command, args, { ...options, detached: true });
    const pgid = this.child.pid;
    if (pgid !== undefined) {
      reapIfOrphaned(pgid);
      live.add(this);
    }
    this.ended = new Promise((resolve) => {
      const end = () => {
        if (this.done) return;
        this.done = true;
        clearTimeout(this.killTimer);
        live.delete(this);
        if (pgid !== undefined) {
          this.signal('SIGKILL'); // what the leader left behind
          released(pgid);
        }
        resolve();
      };
      this.child.once('exit', end);
      // A child that never started (ENOENT) emits `error` and no `exit`.
      this.child.once('error', () => {
        if (this.child.pid === undefined || this.child.exitCode !== null) end();
      });
    });
    // A group started after the run began to close (an area racing the interrupt) ends at once.
    if (closingGraceMs !== undefined) void this.stop(closingGraceMs);
  }

  /** Sends `signal` to every process of the group; a group already gone is fine. */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // ESRCH: nothing of the group is left.
    }
  }

  /**
   * The graceful signal (once), then SIGKILL to the group `graceMs` later — or sooner, when an
   * earlier call asked for less. Resolves when the group has ended.
   */
  stop(graceMs: number): Promise<void> {
    if (this.done) return this.ended;
    if (!this.signalled) {
      this.signalled = true;
      this.signal(graceMs <= 0 ? 'SIGKILL' : this.gracefulSignal);
    }
    const at = Date.now() + Math.max(0, graceMs);
    if (at < this.killAt) {
      this.killAt = at;
      clearTimeout(this.killTimer);
      this.killTimer = setTimeout(() => this.signal('SIGKILL'), Math.max(0, graceMs));
      this.killTimer.unref();
    }
    return this.ended;
  }
}

const live = new Set<ProcessGroup>();
/** Set once the process is closing: the grace a group started from then on gets. */
let closingGraceMs: number | undefined;

/**
 * Stops every child group of this process (graceful signal, SIGKILL after `graceMs`), and any
 * started from now on; resolves when all have ended. For the owner of the process only — the CLI
 * at an interrupt or at the run's time limit — never for a library call inside a test process.
 */
export function closeAllGroups(graceMs: number): Promise<void> {
  closingGraceMs = Math.min(closingGraceMs ?? graceMs, graceMs);
  return Promise.all([...live].map((g) => g.stop(graceMs))).then(() => undefined);
}

/** The live groups' leader pids (tests, diagnostics). */
export function liveGroups(): number[] {
  return [...live].map((g) => g.child.pid!);
}
