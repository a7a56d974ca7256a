/**
 * Spaces requests so a run never exceeds `ratePerSecond` across all properties: receivers under
 * test may be real, rate-limited services.
 */
export function createPacer(ratePerSecond: number): () => Promise<void> {
  if (!(ratePerSecond > 0)) throw new Error(`rate must be a positive number, got ${ratePerSecond}`);
  if (ratePerSecond === Number.POSITIVE_INFINITY) return async () => {};
  const interval = 1000 / ratePerSecond;
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
}
