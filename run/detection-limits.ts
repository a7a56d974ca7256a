/**
 * The detection matrix's time limits: a guard against a hang per fault. Each fault's whole suite
 * runs in one worker, `detectionLanes()` faults side by side; a run of N faults may take the
 * per-fault allowance for each round of lanes. Generous on purpose — the matrix must not fail on a
 * busy machine; a test cannot hang inside it (Playwright's per-test limit), a runner or a worker's
 * teardown can.
 */
import { envVar } from '../core/variables.ts';
import { FAULTS } from '../server/faults.ts';

/**
 * How long one fault's whole suite may take in its worker before the matrix counts it hung: a
 * guard against a hang, not the expected time (≈ 20 s on two idle cores, a minute or two on a
 * machine shared many times over).
 */
export const DETECTION_MS_PER_FAULT = 4 * 60_000;

/** Faults run side by side, one worker each (HARNESS_WORKERS). */
export const detectionLanes = () => Math.max(1, Number(envVar('HARNESS_WORKERS') ?? 4) || 4);

/** A matrix run's time limit: the per-fault guard for each round of `lanes` faults side by side. */
export const detectionTimeoutMs = (faults: number, lanes = detectionLanes()) =>
  Math.max(1, Math.ceil(faults / lanes)) * DETECTION_MS_PER_FAULT;

/** The whole matrix's limits (the embedded run and the dashboard column), for `run --detect`. */
export function detectionMatrixTimeoutMs(): number {
  const webhook = FAULTS.filter((f) => f.area === 'webhooks').length;
  return (
    detectionTimeoutMs(FAULTS.filter((f) => f.area !== 'limits').length) +
    detectionTimeoutMs(webhook)
  );
}
