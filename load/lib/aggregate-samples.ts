/**
 * Raw samples → aggregates, for engines that keep every sample (the Node driver, the tests).
 * The aggregates go through the same metric reduction as k6's, then three values k6 can only
 * approximate are replaced by exact ones.
 */
import { parseIntStrict } from './headers.ts';
import {
  type Aggregates,
  type FactContext,
  MemoryMetrics,
  readAggregates,
  recordSample,
} from './metrics.ts';
import type { Sample } from './sample.ts';

export function aggregateSamples(samples: readonly Sample[], ctx: FactContext): Aggregates {
  const mem = new MemoryMetrics();
  for (const s of samples) recordSample(s, ctx, mem);
  const agg = readAggregates(mem.read);
  const r = ctx.ratePerMin / 60;
  const byPhase = new Map<string, Sample[]>();
  for (const s of samples) {
    const list = byPhase.get(s.phase);
    if (list) list.push(s);
    else byPhase.set(s.phase, [s]);
  }
  for (const [phase, list] of byPhase) {
    const a = agg[phase as keyof Aggregates];
    if (!a) continue;
    const ordered = list.filter((s) => !s.retry).sort((x, y) => x.index - y.index);
    let okBefore = 0;
    for (const s of ordered) {
      if (s.status === 429) break;
      if (s.status >= 200 && s.status < 400) okBefore += 1;
    }
    a.okBeforeFirstRej = okBefore;
    a.okTimesRaw = list
      .filter((s) => s.status >= 200 && s.status < 400)
      .map((s) => (s.sentS + s.recvS) / 2)
      .sort((x, y) => x - y);
    a.remainingRises = countRises(ordered, r);
    a.minRecvS = Math.min(...ordered.map((x) => x.recvS));
    a.rejBrackets = rejectBrackets(ordered);
  }
  return agg;
}

/**
 * Rises of Remaining between causally ordered answers (j sent after i was answered) beyond the
 * tokens that can have been refilled in between.
 */
export function countRises(samples: readonly Sample[], ratePerS: number): number {
  const ok = samples
    .filter((s) => s.status >= 200 && s.status < 400)
    .map((s) => ({ s, rem: parseIntStrict(s.headers.remaining) }))
    .filter((x): x is { s: Sample; rem: number } => x.rem !== undefined)
    .sort((a, b) => a.s.recvS - b.s.recvS);
  let rises = 0;
  for (let j = 0; j < ok.length; j++) {
    const b = ok[j]!;
    for (let i = 0; i < j; i++) {
      const a = ok[i]!;
      if (a.s.recvS >= b.s.sentS) break;
      if (b.rem > a.rem + Math.ceil(ratePerS * (b.s.recvS - a.s.sentS))) {
        rises += 1;
        break;
      }
    }
  }
  return rises;
}

const isOk = (s: Sample) => s.status >= 200 && s.status < 400;

function countBelow(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * For each 429 j: the accepted requests that arrived before it number at least those answered
 * before j was sent and at most those sent before j was answered.
 */
export function rejectBrackets(
  samples: readonly Sample[],
): Array<{ lowCount: number; highCount: number; sentS: number; recvS: number }> {
  const okSent = samples
    .filter(isOk)
    .map((s) => s.sentS)
    .sort((a, b) => a - b);
  const okRecv = samples
    .filter(isOk)
    .map((s) => s.recvS)
    .sort((a, b) => a - b);
  return samples
    .filter((s) => s.status === 429)
    .map((j) => ({
      lowCount: countBelow(okRecv, j.sentS),
      highCount: countBelow(okSent, j.recvS),
      sentS: j.sentS,
      recvS: j.recvS,
    }));
}
