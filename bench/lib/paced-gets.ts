/**
 * The Node driver's way of pacing, as the pacing benches measure it: `rate × seconds` GETs of
 * /v1/tickets?limit=1 over `pool`, each sent at its slot t0 + i/rate (a late one at once, with a
 * yield every 16 so answers are read). Returns the count, each send's lag behind its slot (ms,
 * sorted) with a quantile of them, when the last was sent, when every answer was in, and how many
 * answers were not 200.
 */
import type { Pool } from 'undici';
import { performance, waitUntil } from '../../core/http/pacer.ts';

export async function pacedGets(pool: Pool, key: string, rate: number, seconds: number) {
  const n = Math.max(1, Math.round(rate * seconds));
  const lags: number[] = [];
  const pending: Array<Promise<void>> = [];
  const t0 = performance.now() + 20;
  let lastSend = t0;
  let statusOther = 0;
  for (let i = 0; i < n; i++) {
    const due = t0 + (i * 1000) / rate;
    if (due > performance.now()) await waitUntil(due);
    else if (i % 16 === 0) await new Promise((r) => setImmediate(r));
    lastSend = performance.now();
    lags.push(lastSend - due);
    pending.push(
      pool
        .request({
          method: 'GET',
          path: '/v1/tickets?limit=1',
          headers: { authorization: `Bearer ${key}` },
        })
        .then(async (res) => {
          if (res.statusCode !== 200) statusOther += 1;
          await res.body.dump();
        }),
    );
  }
  await Promise.all(pending);
  const answeredAt = performance.now();
  lags.sort((a, b) => a - b);
  const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * (lags.length - 1)))]!;
  return { n, t0, lastSend, answeredAt, lags, q, statusOther };
}
