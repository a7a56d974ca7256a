/** Arbitraries for the load properties: plan numbers, latency jitter, a seeded random source. */
import fc from 'fast-check';

/** Team-like and larger plans: rates below 60/min need a longer S2 than the schedule's 15 s. */
export const planNumbersArb = fc.record({
  burst: fc.integer({ min: 20, max: 1500 }),
  ratePerMin: fc.integer({ min: 60, max: 1200 }),
});

/** One-way latency jitter in seconds, up to 4 ms (loopback to a busy LAN). */
export const jitterArb = fc.double({ min: 0, max: 0.004, noNaN: true });

/** A seed for the simulation's own PRNG, so each case is reproducible from fast-check's seed. */
export const simSeedArb = fc.integer({ min: 1, max: 2 ** 31 - 2 });

/** Park–Miller minimal standard generator: small, deterministic, good enough for jitter. */
export function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

export function fcSeed(): number {
  const env = process.env.FC_SEED;
  return env && env !== '' ? Number.parseInt(env, 10) : 20240604;
}
