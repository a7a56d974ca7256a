/**
 * A self-contained SVG chart of one plan-limit run: accepted requests over server time against
 * the curve the plan's token bucket would give for the same sends. No scripts, no external
 * fonts or styles, so it can be inlined in the HTML report or opened on its own.
 */
import type { LoadResult } from './lib/index.ts';

const W = 720;
const H = 360;
const M = { left: 60, right: 20, top: 36, bottom: 44 };

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function niceStep(range: number, ticks: number): number {
  const raw = range / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / mag;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

export function renderLoadChart(res: LoadResult): string {
  const { observed, expected } = res.series;
  const all = [...observed, ...expected];
  const maxT = Math.max(1, ...all.map((p) => p[0]));
  const maxN = Math.max(1, ...all.map((p) => p[1]));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (t: number) => M.left + (t / maxT) * pw;
  const y = (n: number) => M.top + ph - (n / maxN) * ph;
  const path = (pts: Array<[number, number]>) =>
    pts.map(([t, n], i) => `${i ? 'L' : 'M'}${x(t).toFixed(1)},${y(n).toFixed(1)}`).join('');
  const parts: string[] = [];
  const xs = niceStep(maxT, 8);
  for (let t = 0; t <= maxT + 1e-9; t += xs) {
    parts.push(
      `<line x1="${x(t)}" y1="${M.top + ph}" x2="${x(t)}" y2="${M.top + ph + 4}" stroke="#444"/>`,
      `<text x="${x(t)}" y="${M.top + ph + 16}" text-anchor="middle">${+t.toFixed(1)}</text>`,
    );
  }
  const ys = niceStep(maxN, 6);
  for (let n = 0; n <= maxN + 1e-9; n += ys) {
    parts.push(
      `<line x1="${M.left}" y1="${y(n)}" x2="${M.left + pw}" y2="${y(n)}" stroke="#eee"/>`,
      `<text x="${M.left - 6}" y="${y(n) + 4}" text-anchor="end">${+n.toFixed(0)}</text>`,
    );
  }
  const b = res.estimates.burst;
  const title = `${res.plan}: ${res.limits.ratePerMin}/min, burst ${res.limits.burst} — B̂ ${
    b?.value != null ? `${b.value.toFixed(1)} ± ${b.uncertainty.toFixed(1)}` : 'n/a'
  }, r̂ ${Number.isFinite(res.estimates.rate.perMin) ? res.estimates.rate.perMin.toFixed(1) : 'n/a'}/min, ${res.limiter.algorithm} (${res.engine})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11" role="img" aria-label="${esc(title)}">
<title>${esc(title)}</title>
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="${M.left}" y="20" font-size="13">${esc(title)}</text>
${parts.join('\n')}
<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" stroke="#444"/>
<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" stroke="#444"/>
<text x="${M.left + pw / 2}" y="${H - 8}" text-anchor="middle">server time (s)</text>
<text x="14" y="${M.top + ph / 2}" text-anchor="middle" transform="rotate(-90 14 ${M.top + ph / 2})">accepted (cumulative, first key)</text>
<path d="${path(expected)}" fill="none" stroke="#999" stroke-width="2" stroke-dasharray="6 4"/>
<path d="${path(observed)}" fill="none" stroke="#1f6feb" stroke-width="1.5"/>
<g transform="translate(${M.left + 10},${M.top + 8})">
<line x1="0" y1="0" x2="24" y2="0" stroke="#999" stroke-width="2" stroke-dasharray="6 4"/><text x="30" y="4">expected (plan's token bucket)</text>
<line x1="0" y1="16" x2="24" y2="16" stroke="#1f6feb" stroke-width="1.5"/><text x="30" y="20">observed</text>
</g>
</svg>
`;
}
