/**
 * Where an embedded run's repros replay. The embedded deployment lived inside the run and is gone
 * when it ends (a pasted repro would get "connection refused"); `npm run serve` starts the same
 * reference deployment alone, with the run's faults, and writes its URL and keys under the very
 * variables the repros name ($HARNESS_BASE_URL, $HARNESS_API_KEY, …: core/checks/repro.ts) to an
 * env file. Two commands, then any repro of the report runs as pasted. A real target's repros run
 * as pasted already: its URL is in them, its keys are the user's own variables.
 */

/** The env file the replay instructions have `serve` write and the shell load (git-ignored). */
export const REPLAY_ENV_FILE = '.harness-replay.env';

export interface Replay {
  /** Starts the deployment the repros replay against; it runs until Ctrl-C. */
  start: string;
  /** Loads its URL and keys into the shell the repros are pasted into. */
  load: string;
  /** The same, said once in words. */
  about: string;
}

/** How an embedded run's repros replay; undefined for a real target (they run as pasted). */
export function replayOf(target: {
  embedded: boolean;
  faults: readonly string[];
}): Replay | undefined {
  if (!target.embedded) return undefined;
  const faults = target.faults.length ? ` --fault ${target.faults.join(',')}` : '';
  return {
    // The contract suite's embedded deployment gives the run the Growth workspace's keys.
    start: `npm run serve -- --api-plan growth${faults} --port 0 --env-out ${REPLAY_ENV_FILE}`,
    load: `set -a; . ./${REPLAY_ENV_FILE}; set +a`,
    about: `This run's embedded deployment is gone; its repros name the URL and keys by variable ($HARNESS_BASE_URL, $HARNESS_API_KEY, …). In the harness directory, start the same deployment alone with the first command (it keeps running and writes its URL and keys to ${REPLAY_ENV_FILE}), load them into the shell you paste repros into with the second, then paste any repro: it creates what it needs first. A webhook repro also names the receiver and the secret it needs.`,
  };
}

/** The console lines that say it, once, above the failures. */
export function replayLines(r: Replay): string[] {
  return [
    'these repros replay against the reference deployment started alone (the embedded one is gone):',
    `  1. ${r.start}`,
    '     (in the harness directory; it keeps running — use another terminal for the rest)',
    `  2. ${r.load}`,
    '     (in the shell you paste repros into, same directory; then paste any repro)',
  ];
}
