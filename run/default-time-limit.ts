/**
 * The time limit of a `harness run` nobody gave one (--max-seconds / HARNESS_RUN_MAX_SECONDS):
 * a run still ends, so a harness bug — an area that ignores its own limit, a hang between areas —
 * never holds a CI job until the job's own limit (GitHub's is 6 hours).
 *
 * Why this number: every area already stops itself at its own limit, so the default is their sum
 * for the areas this run will run, plus a minute for the preflight and the reports, rounded up to
 * whole minutes — it never cuts a slow but working run short, and it is reached only when
 * something did not stop where it should have. A full run: contracts 10 min (+20 s to stop) + load
 * ≈ 3 min + fuzz 2.5 min + 1 min → 18 min; with --skip load 15 min; --detect adds 26 min.
 */
import { CONTRACTS_TIMEOUT_MS } from '../contracts/contracts-step.ts';
import { FUZZ_STEP_SECONDS } from '../fuzz/fuzz-step.ts';
import { LOAD_STEP_MAX_SECONDS } from '../load/load-step.ts';
import { DETECTION_SUITE_TIMEOUT_MS } from './detection.ts';

/** What stopping an area at its limit may add: Playwright's and k6's graceful stop, a start-up. */
const STOP_S = 30;

export function defaultTimeLimit(o: {
  areas: ReadonlyArray<'contracts' | 'load' | 'fuzz'>;
  detect: boolean;
  contractsTimeoutMs?: number;
}): { seconds: number; name: string } {
  const own = {
    contracts: (o.contractsTimeoutMs ?? CONTRACTS_TIMEOUT_MS) / 1000 + 20,
    load: LOAD_STEP_MAX_SECONDS + STOP_S,
    fuzz: Object.values(FUZZ_STEP_SECONDS).reduce((a, b) => a + b, 0) + STOP_S,
  };
  let s = 60 + o.areas.reduce((sum, a) => sum + own[a], 0);
  // The fault projects' suite and the dashboard column's, each with its stop.
  if (o.detect) s += (DETECTION_SUITE_TIMEOUT_MS + CONTRACTS_TIMEOUT_MS) / 1000 + 2 * STOP_S;
  const minutes = Math.ceil(s / 60);
  return {
    seconds: minutes * 60,
    name: `the run's default time limit (${minutes} min; --max-seconds / HARNESS_RUN_MAX_SECONDS to set one)`,
  };
}
