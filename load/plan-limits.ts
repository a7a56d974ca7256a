/*
 * Plan-limit load check — k6 ≥ 1.0 (runs TypeScript natively).
 *
 *   k6 run -e PLAN=team -e BASE_URL=https://staging.example.com load/plan-limits.ts
 *
 * Keys come from the environment, never the command line: PLAN_KEYS, else HARNESS_<PLAN>_KEYS
 * (comma-separated; a second key of the same workspace enables the scope phase S5).
 * OTHER_WORKSPACE_KEY, else HARNESS_OTHER_WORKSPACE_KEY: a key of another workspace, none of whose
 * keys this run loads, enables S0w/S5w (the other-workspace verdict); without it that is skipped.
 * Enterprise needs ENTERPRISE_RATE and ENTERPRISE_BURST (k6 cannot probe in its init context).
 * TIME_SCALE (default 1) matches a deployment whose clock runs N× faster.
 * OVERDRIVE_S, UNDER_RATE_S, IDLE_S=a,b and MAX_REAL_RATE override the schedule (load/lib/schedule.ts).
 * Every request is sent at its own slot (t0 + phase start + i / rate) and never dropped: bursts by
 * VUs that all exist before the phase (EXPECTED_RTT_MS, default 50, sizes them: rate × 2 × RTT),
 * steady phases by one VU with asynchronous requests, which so sees the whole phase in order.
 * MAX_REAL_RATE (default 500 here, 4000 in the Node driver) caps the wall-clock send rate: a k6
 * VU runs the sample bookkeeping in JavaScript per request, and a burst it cannot keep up with
 * overlaps the next phase on the same key (k6 phases start at fixed offsets).
 * SUMMARY_PATH (default reports/load/load-<plan>.json) receives the same JSON as the Node
 * driver (`npm run load -- --engine node`): load/lib builds and judges it in both engines.
 * RAW_SUMMARY_PATH (optional) receives k6's own summary data, to merge the segments of several
 * generators (load/lib/merge-segments.ts; load/README.md, "Several load generators").
 *
 * This file only schedules and records. Phases, estimators and verdicts live in load/lib;
 * the thresholds below are coarse guards, the precise verdicts are in the JSON.
 * Schedules are fixed startTime offsets here (the Node driver shifts a late phase instead).
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http, { type Response } from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { setTimeout } from 'k6/timers';
import {
  buildSchedule,
  factContext,
  isPlanName,
  judgeRun,
  metricSpecs,
  parseIntStrict,
  type Phase,
  type PhaseName,
  RETRY_PROBES,
  rateHeaders,
  readAggregates,
  readK6Summary,
  recordSample,
  resolvePlan,
  retryAfterSeconds,
  type Sample,
  wholePhaseFacts,
} from './lib/index.ts';

const PLAN = __ENV.PLAN ?? 'team';
if (!isPlanName(PLAN)) throw new Error(`PLAN must be team, growth or enterprise, got ${PLAN}`);
const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const TIME_SCALE = Number(__ENV.TIME_SCALE ?? '1');
const KEYS = (__ENV.PLAN_KEYS ?? __ENV[`HARNESS_${PLAN.toUpperCase()}_KEYS`] ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter((k) => k !== '');
// Empty (as the harness's k6 engine passes it when the run has none) means none.
const OTHER_KEY =
  (__ENV.OTHER_WORKSPACE_KEY ?? __ENV.HARNESS_OTHER_WORKSPACE_KEY ?? '').trim() || undefined;
const SUMMARY_PATH = __ENV.SUMMARY_PATH ?? `reports/load/load-${PLAN}.json`;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

// Enterprise: ENTERPRISE_RATE / ENTERPRISE_BURST, else what a probe of the key saw
// (ENTERPRISE_PROBE_LIMIT / ENTERPRISE_PROBE_REMAINING: the harness's k6 engine probes first).
const limits = resolvePlan(
  PLAN,
  {
    ratePerMin: PLAN === 'enterprise' ? num(__ENV.ENTERPRISE_RATE) : undefined,
    burst: PLAN === 'enterprise' ? num(__ENV.ENTERPRISE_BURST) : undefined,
  },
  PLAN === 'enterprise'
    ? {
        limitHeader: num(__ENV.ENTERPRISE_PROBE_LIMIT),
        remaining: num(__ENV.ENTERPRISE_PROBE_REMAINING),
      }
    : {},
);
const idle = (__ENV.IDLE_S ?? '').split(',').map(Number);
// Optional schedule overrides (the harness passes its own; tests shorten phases).
const schedule = buildSchedule(limits, {
  timeScale: TIME_SCALE,
  keys: KEYS.length,
  otherWorkspace: OTHER_KEY !== undefined,
  ...(num(__ENV.OVERDRIVE_S) ? { overdriveS: num(__ENV.OVERDRIVE_S) } : {}),
  ...(num(__ENV.UNDER_RATE_S) ? { underRateS: num(__ENV.UNDER_RATE_S) } : {}),
  ...(idle.length === 2 && idle.every((v) => v > 0)
    ? { idleS: [idle[0]!, idle[1]!] as const }
    : {}),
  maxRealRate: num(__ENV.MAX_REAL_RATE) ?? 500,
});
const factCtx = factContext(schedule);

// VUs a burst needs to keep its pace: its wall-clock rate × twice EXPECTED_RTT_MS (default 50).
const rttS = (parseIntStrict(__ENV.EXPECTED_RTT_MS) ?? 50) / 1000;

/**
 * Every phase is a fixed number of iterations, each sent at its own slot `t0 + phase start +
 * i / rate`, never a k6 arrival rate: an arrival-rate executor refuses phases under 1 s (a burst
 * of B + 20 lasts far less) and *drops* an iteration that finds no free VU, so a busy machine
 * silently shortened the burst. Here a late request is sent late, with its real send time, and
 * never dropped; B̂'s brackets use those times, so lateness widens the interval honestly.
 */
function scenarioFor(p: Phase): Scenario {
  // One VU, one iteration, running the function named after the phase's kind.
  const one = {
    executor: 'shared-iterations' as const,
    vus: 1,
    iterations: 1,
    startTime: `${Math.round(p.startMs)}ms`,
    exec: p.kind,
    env: { PHASE: p.name },
  };
  if (p.kind === 'probe' || p.kind === 'retry') return { ...one, maxDuration: '120s' };
  // Room for a loaded machine, yet short enough that k6 can hand the VUs of a phase that is
  // over to a later one (it sizes the VU pool from these windows). What is not sent by then is
  // reported as dropped.
  const paced = {
    ...one,
    maxDuration: `${Math.ceil(2 * p.durationMs + 5000)}ms`,
    gracefulStop: '10s',
  };
  // Steady: one VU sends the whole phase with asynchronous requests (its pace never waits for an
  // answer) and so holds every sample of it in order: the same regression of r̂ and the same
  // exact facts as the Node driver (`wholePhaseFacts`). Steady rates are a few r (≤ a few
  // hundred per second), well within one VU's event loop.
  if (p.kind === 'steady') return paced;
  // Bursts: every VU exists before the phase starts (k6 initialises shared-iterations VUs up
  // front), enough for the rate at twice the expected round trip; a VU free early picks up the
  // next slot. A burst is hundreds of requests per second: spread over VUs, k6 runs them on
  // every core (one VU's event loop could not keep up with Growth's burst).
  return {
    ...paced,
    vus: Math.min(p.count, Math.ceil(p.ratePerRealS * 2 * rttS) + 5),
    iterations: p.count,
  };
}

const phaseNamed = new Map(schedule.phases.map((p) => [p.name, p]));
const B = limits.burst;
const s1 = schedule.phases.find((p) => p.name === 'S1')!;
const pacedPhases = schedule.phases.filter((p) => p.kind === 'burst' || p.kind === 'steady');

export const options: Options = {
  scenarios: Object.fromEntries(schedule.phases.map((p) => [p.name, scenarioFor(p)])),
  summaryTrendStats: ['avg', 'min', 'max', 'count', 'p(50)', 'p(99)'],
  thresholds: {
    // 429 is an expected status (see setResponseCallback): any other failure is a finding.
    http_req_failed: ['rate==0'],
    // Nothing dropped: every paced phase sends its whole count, as counted by this script.
    ...Object.fromEntries(pacedPhases.map((p) => [`lim_${p.name}_sent`, [`count>=${p.count}`]])),
    'checks{check:X-RateLimit-Limit equals the plan}': ['rate==1'],
    'checks{check:Retry-After on every 429}': ['rate==1'],
    'checks{check:Remaining is 0 on 429}': ['rate==1'],
    lim_S2b_rej: ['count==0'],
    lim_S6_retry_fail: ['count==0'],
    // Coarse burst guard: B ± 3 plus what can refill while S1 runs; the JSON has B̂ ± u.
    lim_S1_ok: [
      `count>=${B - 3}`,
      `count<=${B + 3 + Math.ceil(schedule.r * (s1.durationS + 1) * 1.5)}`,
    ],
  },
};

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

const sinks = new Map<string, Counter | Trend>(
  metricSpecs().map((m) => [
    m.name,
    m.kind === 'counter' ? new Counter(m.name) : new Trend(m.name),
  ]),
);
const sink = { add: (name: string, v: number) => sinks.get(name)?.add(v) };

interface SetupData {
  t0: number;
}

export function setup(): SetupData {
  if (KEYS.length === 0)
    throw new Error(`no keys: set PLAN_KEYS or HARNESS_${PLAN.toUpperCase()}_KEYS`);
  // T0_MS: the shared start of a run split over several generators (load/README.md), so that
  // every generator's sample times and slots are in one time base.
  return { t0: num(__ENV.T0_MS) ?? Date.now() };
}

// Send time minus the slot's due time, wall ms: how well this k6 kept the schedule.
const lag = new Trend('pacing_lag_ms', true);

// Per VU: a VU's requests are sequential, so a rise between two of its answers is causal (the
// steady phases, one VU each, record the exact count over all answers: wholePhaseFacts).
const lastByPhase = new Map<string, { rem: number; sentS: number }>();

// Key index 2 is the other workspace's (its phases exist only when OTHER_KEY does).
const keyOf = (phase: Phase) => (phase.key === 2 ? OTHER_KEY! : (KEYS[phase.key] ?? KEYS[0]!));

const request = (phase: Phase) => ({
  url: `${BASE_URL}/v1/tickets?limit=1`,
  params: {
    headers: { Authorization: `Bearer ${keyOf(phase)}`, Accept: 'application/json' },
    tags: { phase: phase.name },
  },
});

function record(
  data: SetupData,
  phase: Phase,
  index: number,
  sent: number,
  res: Response,
  retry = false,
): Sample {
  const recv = Date.now();
  const toServer = (ms: number) => ((ms - data.t0) / 1000) * TIME_SCALE;
  const headers = rateHeaders(res.headers);
  const sample: Sample = {
    phase: phase.name,
    key: phase.key,
    index,
    sentS: toServer(sent),
    recvS: toServer(recv),
    status: res.status,
    headers,
    ...(retry ? { retry: true } : {}),
  };
  recordSample(sample, factCtx, sink);
  // The other workspace's answers carry its own plan: only the other-workspace verdict reads them.
  if (phase.key === 2) return sample;
  check(res, {
    'X-RateLimit-Limit equals the plan': () => parseIntStrict(headers.limit) === limits.ratePerMin,
    'status is 2xx or 429': (r) => (r.status >= 200 && r.status < 400) || r.status === 429,
  });
  if (res.status === 429) {
    check(res, {
      'Retry-After on every 429': () => retryAfterSeconds(headers) !== undefined,
      'Remaining is 0 on 429': () => parseIntStrict(headers.remaining) === 0,
    });
  } else {
    const rem = parseIntStrict(headers.remaining);
    const last = lastByPhase.get(phase.name);
    if (rem !== undefined) {
      if (last && rem > last.rem + Math.ceil(schedule.r * (sample.recvS - last.sentS)))
        sink.add(`lim_${phase.name}_rem_rise`, 1);
      lastByPhase.set(phase.name, { rem, sentS: sample.sentS });
    }
  }
  return sample;
}

function send(data: SetupData, phase: Phase, index: number, retry = false): Sample {
  const { url, params } = request(phase);
  const sent = Date.now();
  return record(data, phase, index, sent, http.get(url, params), retry);
}

const phaseOfScenario = (): Phase => phaseNamed.get(__ENV.PHASE as PhaseName)!;
// A slot of the run's one schedule, from t0 rather than from this instance's scenario start, so
// that generators that started a little apart still share every slot.
const dueMs = (data: SetupData, phase: Phase, i: number) =>
  data.t0 + phase.startMs + (i * 1000) / phase.ratePerRealS;

/** S0 on key A, or S0w on the other workspace's key: one request. */
export function probe(data: SetupData): void {
  send(data, phaseOfScenario(), 0);
}

/** One slot of a burst phase: wait for its due time, send, record. */
export function burst(data: SetupData): void {
  const phase = phaseOfScenario();
  const i = exec.scenario.iterationInTest;
  const due = dueMs(data, phase, i);
  const wait = due - Date.now();
  if (wait > 0) sleep(wait / 1000);
  lag.add(Math.max(0, Date.now() - due));
  send(data, phase, i);
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A whole steady phase in one VU: paced asynchronous sends, then the whole-phase facts. */
export async function steady(data: SetupData): Promise<void> {
  const phase = phaseOfScenario();
  const pending: Array<Promise<Sample>> = [];
  for (let i = 0; i < phase.count; i++) {
    const due = dueMs(data, phase, i);
    const wait = due - Date.now();
    if (wait > 0) await pause(wait);
    lag.add(Math.max(0, Date.now() - due));
    const { url, params } = request(phase);
    const sent = Date.now();
    pending.push(
      http.asyncRequest('GET', url, null, params).then((res) => record(data, phase, i, sent, res)),
    );
  }
  wholePhaseFacts(await Promise.all(pending), factCtx, sink);
}

export function retry(data: SetupData): void {
  const s6 = phaseNamed.get('S6')!;
  for (let i = 0; i < RETRY_PROBES; i++) {
    const s = send(data, s6, i);
    if (s.status !== 429) continue;
    const ra = retryAfterSeconds(s.headers);
    if (ra !== undefined) {
      sleep(ra / TIME_SCALE);
      send(data, s6, i + 1, true);
    }
    return;
  }
}

// k6 passes the classic summary object or the machine-readable one (default from k6 2 on):
// load/lib reads both, so the judged JSON is the same whichever this k6 hands over.
export function handleSummary(data: unknown): Record<string, string> {
  const k6 = readK6Summary(data);
  const setup = k6.setupData as Partial<SetupData> | undefined;
  const result = judgeRun({
    engine: 'k6',
    schedule,
    aggregates: readAggregates(k6.read),
    baseUrl: BASE_URL,
    keys: KEYS.length,
    startedAt: new Date(setup?.t0 ?? Date.now()).toISOString(),
    wallSeconds: k6.wallSeconds ?? 0,
    // Planned requests of the paced phases that were never sent (cut by maxDuration).
    dropped: pacedPhases.reduce(
      (n, p) => n + Math.max(0, p.count - (k6.read(`lim_${p.name}_sent`)?.count ?? 0)),
      0,
    ),
  });
  const lagMs = k6.read('pacing_lag_ms');
  if (lagMs?.count)
    result.requests.pacing = {
      p50Ms: lagMs.p50 ?? 0,
      p99Ms: lagMs.p99 ?? 0,
      maxMs: lagMs.max ?? 0,
    };
  const lines = result.verdicts.map((v) => `${v.status.padEnd(12)} ${v.id}: ${v.observed}`);
  return {
    [SUMMARY_PATH]: `${JSON.stringify(result, null, 2)}\n`,
    // k6's own summary data, for merging the segments of several generators (merge-segments.ts).
    ...(__ENV.RAW_SUMMARY_PATH ? { [__ENV.RAW_SUMMARY_PATH]: JSON.stringify(data) } : {}),
    stdout: `plan ${PLAN}: ${result.passed ? 'pass' : 'FAIL'}\n${lines.join('\n')}\n`,
  };
}
