/**
 * One seed for every fast-check run of the harness: fixed by default so CI is reproducible,
 * overridable with `FC_SEED` to explore or to replay a failure (fast-check prints the seed and the
 * shrink path in its failure message when a seed is passed).
 */
import type fc from 'fast-check';

/** The seed used when `FC_SEED` is unset or empty. */
export const DEFAULT_SEED = 0x5e_c0_de;

/** `FC_SEED` as an integer, else {@link DEFAULT_SEED}. A non-integer value is misuse and throws. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FC_SEED?.trim();
  if (!raw) return DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got '${raw}'`);
  return seed;
}

/** fast-check parameters with the harness seed; `overrides` win (e.g. `numRuns`). */
export function fcParams<T>(overrides: fc.Parameters<T> = {}): fc.Parameters<T> {
  return { seed: fuzzSeed(), ...overrides };
}
