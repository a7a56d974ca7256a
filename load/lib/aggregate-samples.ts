/**
 * Raw samples → aggregates, for whoever holds every sample of a phase (the Node driver; k6's
 * single-VU steady phases; the tests). Each sample goes through the same metric reduction as in
 * k6, and each whole phase adds the facts only its complete, ordered list has
 * (`wholePhaseFacts`) through the same metrics — so both engines are read back by one
 * `readAggregates`. The Node driver adds the per-429 brackets of B̂ on top.
 */
import { parseIntStrict } from './headers.ts';
import {
  type Aggregates,
  type FactContext,
  MemoryMetrics,
  type MetricSink,
  metricName,
  type PhaseAgg,
  readAggregates,
  recordSample,
} from './metrics.ts';
import type { Sample } from './sample.ts';
import { linearFit } from './stats.ts';

export function aggregateSamples(samples: readonly Sample[], ctx: FactContext): Aggregates {
  const mem = new MemoryMetrics();
  const byPhase = new Map<string, Sample[]>();
  for (const s of samples) {
    recordSample(s, ctx, mem);
    const list = byPhase.get(s.phase);
    if (list) list.push(s);
    else byPhase.set(s.phase, [s]);
  }
  for (const list of byPhase.values()) wholePhaseFacts(list, ctx, mem);
  const agg = readAggregates(mem.read);
  for (const [phase, list] of byPhase) {
    const a = agg[phase as keyof Aggregates];
    if (!a) continue;
    const ordered = list.filter((s) => !s.retry).sort((x, y) => x.index - y.index);
    a.minRecvS = Math.min(...ordered.map((x) => x.recvS));
    a.rejBrackets = rejectBrackets(ordered);
  }
  return agg;
}

/**
 * The facts of one phase that need every one of its samples at once, recorded as one value
 * each: accepted before the first 429 in send order, rises of Remaining between causally
 * ordered answers, and the regression of accept rank on accept mid time (r̂'s estimator).
 * Call it once per phase, with all of that phase's samples.
 */
export function wholePhaseFacts(
  samples: readonly Sample[],
  ctx: FactContext,
  sink: MetricSink,
): void {
  if (samples.length === 0) return;
  const m = (fact: string, v: number) => sink.add(metricName(samples[0]!.phase, fact), v);
  const ordered = samples.filter((s) => !s.retry).sort((x, y) => x.index - y.index);
  let okBefore = 0;
  for (const s of ordered) {
    if (s.status === 429) break;
    if (isOk(s)) okBefore += 1;
  }
  m('x_okb', okBefore);
  m('x_rise', countRises(ordered, ctx.ratePerMin / 60));
  const ts = samples
    .filter(isOk)
    .map((s) => (s.sentS + s.recvS) / 2)
    .sort((x, y) => x - y);
  const fit = linearFit(
    ts,
    ts.map((_, i) => i),
  );
  if (fit && fit.slope > 0 && Number.isFinite(fit.slopeSe)) {
    m('fit_n', fit.n);
    m('fit_slope', fit.slope);
    m('fit_se', fit.slopeSe);
    m('fit_span', ts[ts.length - 1]! - ts[0]!);
  }
}

/**
 * Rises of Remaining between causally ordered answers (j sent after i was answered) beyond the
 * tokens that can have been refilled in between.
 */
export function countRises(samples: readonly Sample[], ratePerS: number): number {
  const ok = samples
    .filter(isOk)
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
export function rejectBrackets(samples: readonly Sample[]): NonNullable<PhaseAgg['rejBrackets']> {
  const ok = samples.filter(isOk);
  const okSent = ok.map((s) => s.sentS).sort((a, b) => a - b);
  const okRecv = ok.map((s) => s.recvS).sort((a, b) => a - b);
  return samples
    .filter((s) => s.status === 429)
    .map((j) => ({
      lowCount: countBelow(okRecv, j.sentS),
      highCount: countBelow(okSent, j.recvS),
      sentS: j.sentS,
      recvS: j.recvS,
    }));
}
