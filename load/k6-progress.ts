/**
 * The k6 engine's live progress: k6 aggregates the script's per-phase counters across its VUs
 * (`lim_<phase>_sent/ok/rej`, the accept times `lim_<phase>_ok_t`) and serves them on its REST
 * API while it runs; polled here once a second into the same `LiveProgress` as the Node driver's.
 * Each k6 process gets its own loopback port (`k6 run --address`), so plans can run side by side.
 */
import { request } from 'undici';
import {
  type LiveProgress,
  liveProgress,
  metricName,
  PHASE_NAMES,
  type PhaseName,
  type PlanName,
  type Tally,
} from './lib/index.ts';

interface K6Metric {
  id: string;
  attributes: { type: string; sample: Record<string, number> };
}

/** k6's metrics (the REST API's `/v1/metrics` data) as a tally per phase. */
export function tallyFromK6(metrics: readonly K6Metric[]): Tally {
  const byId = new Map(metrics.map((m) => [m.id, m.attributes.sample]));
  const count = (phase: (typeof PHASE_NAMES)[number], fact: string) =>
    byId.get(metricName(phase, fact))?.count ?? 0;
  const t: Tally = {};
  for (const phase of PHASE_NAMES) {
    const sent = count(phase, 'sent');
    if (sent === 0) continue;
    const okT = byId.get(metricName(phase, 'ok_t'));
    t[phase] = {
      sent,
      ok: count(phase, 'ok'),
      rej: count(phase, 'rej'),
      ...(okT?.min !== undefined && okT.max !== undefined
        ? { firstOkS: okT.min, lastOkS: okT.max }
        : {}),
    };
  }
  return t;
}

/**
 * Polls k6's REST API at `port` until stopped; `current()` is the latest progress (undefined
 * until k6 answered once). A k6 that does not answer (not started yet, API disabled) is retried.
 * `idleS`: the schedule's idle period before each phase (server s), for the phase's label.
 */
export function pollK6Progress(
  port: number,
  plan: PlanName,
  planned: number,
  idleS: Partial<Record<PhaseName, number>> = {},
  everyMs = 1000,
): { current: () => LiveProgress | undefined; stop: () => void } {
  let latest: LiveProgress | undefined;
  let stopped = false;
  let busy = false;
  const poll = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const res = await request(`http://127.0.0.1:${port}/v1/metrics`, {
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      const body = (await res.body.json()) as { data?: K6Metric[] };
      if (res.statusCode === 200 && Array.isArray(body.data)) {
        const p = liveProgress(plan, planned, tallyFromK6(body.data));
        const idle = p.phase === 'done' ? undefined : idleS[p.phase];
        latest = idle ? { ...p, idleS: idle } : p;
      }
    } catch {
      // k6 not listening yet, or already gone: the last reading stands.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), everyMs);
  timer.unref();
  return {
    current: () => latest,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
