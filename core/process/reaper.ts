/**
 * The reaper: what ends this process's child process groups when this process dies without
 * ending them itself — SIGKILLed, crashed, `process.exit` in the middle of an area.
 *
 * Why a separate watcher and not each child watching its parent: the children are not ours to
 * change (Playwright's runner and workers, k6), and a child can only watch while its event loop
 * runs — the failure this exists for is a Playwright worker blocked for minutes on a regex, which
 * ignores SIGTERM (Playwright's workers do, waiting for the runner) and would never see its parent
 * go. Linux's PR_SET_PDEATHSIG is not reachable from Node. So one tiny `sh` per harness process
 * (≈1 MB, started once, on the first child group) holds the read end of a pipe from it; this
 * process writes `+PGID` when a group starts and `-PGID` once it is gone (so a recycled pid is
 * never killed). When this process ends, however it ends, the kernel closes the pipe; `read` sees
 * end-of-file and the reaper SIGKILLs every group still listed — busy or not — and exits.
 *
 * The reaper is detached (a session of its own): a signal to this process's group — Ctrl-C, CI's
 * `timeout`, even `kill -9 -PGID` — does not reach it, and it outlives the group to clean up. It
 * ignores INT/TERM/HUP for the same reason. Its stdin is unreferenced: it never keeps this
 * process alive, and Node opens pipes close-on-exec, so no other child holds the write end open.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/** POSIX sh: reads +PGID / -PGID lines until end-of-file, then SIGKILLs the groups still listed. */
export const REAPER_SCRIPT = `trap '' INT TERM HUP
live=' '
while IFS= read -r line; do
  g=\${line#?}
  case $g in ''|*[!0-9]*) continue ;; esac
  case $line in
    +*) live="$live$g " ;;
    -*) case $live in *" $g "*) live="\${live%%" $g "*} \${live#*" $g "}" ;; esac ;;
  esac
done
for g in $live; do kill -s KILL -- "-$g" 2>/dev/null; done
`;

let reaper: ChildProcess | undefined;
let broken = false;

function send(line: string): void {
  if (broken) return;
  if (!reaper) {
    reaper = spawn('sh', ['-c', REAPER_SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    reaper.unref();
    (reaper.stdin as Socket).unref();
    // Without a reaper the run still works; only a SIGKILL of this process would leave children.
    reaper.on('error', () => {
      broken = true;
    });
    reaper.stdin!.on('error', () => {
      broken = true;
    });
  }
  reaper.stdin!.write(`${line}\n`);
}

/** `pgid` is killed by the reaper if this process dies before calling `released(pgid)`. */
export function reapIfOrphaned(pgid: number): void {
  send(`+${pgid}`);
}

/** `pgid` is gone (its leader exited and the group was swept): never kill that number again. */
export function released(pgid: number): void {
  if (reaper) send(`-${pgid}`);
}

/** The reaper's pid, for tests that check it ends too. */
export function reaperPid(): number | undefined {
  return reaper?.pid;
}
