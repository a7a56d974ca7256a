/*
 * Plan-limit load check — k6 ≥ 1.0 (runs TypeScript natively).
 *
 *   k6 run -e PLAN=team -e BASE_URL=https://staging.example.com load/plan-limits.ts
 *
 * Keys come from the environment, never the command line: PLAN_KEYS, else HARNESS_<PLAN>_KEYS
 * (comma-separated; a second key of the same workspace enables the scope phase S5).
 * Enterprise needs ENTERPRISE_RATE and ENTERPRISE_BURST (k6 cannot probe in its init context).
 * TIME_SCALE (default 1) matches a deployment whose clock runs N× faster.
 * OVERDRIVE_S, UNDER_RATE_S, IDLE_S=a,b and MAX_REAL_RATE override the schedule (load/lib/schedule.ts).
 * EXPECTED_RTT_MS (default 50) sizes the VUs; burst phases get every VU up front.
 * MAX_REAL_RATE (default 500 here, 4000 in the Node driver) caps the wall-clock send rate: a k6
 * VU runs the sample bookkeeping in JavaScript per request, and a burst it cannot keep up with
 * overlaps the next phase on the same key (k6 phases start at fixed offsets).
 * SUMMARY_PATH (default reports/latest/load-<plan>.json) receives the same JSON as the Node
 * driver (`npm run load -- --engine node`): load/lib builds and judges it in both engines.
 *
 * This file only schedules and records. Phases, estimators and verdicts live in load/lib;
 * the thresholds below are coarse guards, the precise verdicts are in the JSON.
 * Schedules are fixed startTime offsets here (the Node driver shifts a late phase instead).
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import {
  buildSchedule,
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
} from './lib/index.ts';

const PLAN = __ENV.PLAN ?? 'team';
if (!isPlanName(PLAN)) throw new Error(`PLAN must be team, growth or enterprise, got ${PLAN}`);
const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const TIME_SCALE = Number(__ENV.TIME_SCALE ?? '1');
const KEYS = (__ENV.PLAN_KEYS ?? __ENV[`HARNESS_${PLAN.toUpperCase()}_KEYS`] ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter((k) => k !== '');
const SUMMARY_PATH = __ENV.SUMMARY_PATH ?? `reports/latest/load-${PLAN}.json`;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

const limits = resolvePlan(PLAN, {
  ratePerMin: PLAN === 'enterprise' ? num(__ENV.ENTERPRISE_RATE) : undefined,
  burst: PLAN === 'enterprise' ? num(__ENV.ENTERPRISE_BURST) : undefined,
});
const idle = (__ENV.IDLE_S ?? '').split(',').map(Number);
// Optional schedule overrides (the harness passes its own; tests shorten phases).
const schedule = buildSchedule(limits, {
  timeScale: TIME_SCALE,
  keys: KEYS.length,
  ...(num(__ENV.OVERDRIVE_S) ? { overdriveS: num(__ENV.OVERDRIVE_S) } : {}),
  ...(num(__ENV.UNDER_RATE_S) ? { underRateS: num(__ENV.UNDER_RATE_S) } : {}),
  ...(idle.length === 2 && idle.every((v) => v > 0)
    ? { idleS: [idle[0]!, idle[1]!] as const }
    : {}),
  maxRealRate: num(__ENV.MAX_REAL_RATE) ?? 500,
});
const factCtx = {
  ratePerMin: limits.ratePerMin,
  resetHorizonS: Math.max(limits.burst / schedule.r, 60) * 2 + 5,
};

function scenarioFor(p: Phase): Scenario {
  const startTime = `${Math.round(p.startMs)}ms`;
  if (p.kind === 'probe' || p.kind === 'retry') {
    return {
      executor: 'shared-iterations',
      vus: 1,
      iterations: 1,
      startTime,
      exec: p.kind === 'probe' ? 'probe' : 'retry',
      env: { PHASE: p.name },
      maxDuration: '120s',
    };
  }
  // k6's arrival-rate executors refuse durations under 1 s, and a burst of B + 20 lasts far
  // less. So a phase keeps its exact arrival rate (count per its own duration) but runs at least
  // 1 s: iterations past `count` send nothing (see `paced`), and the next phase starts at its
  // planned offset as before.
  const ms = Math.max(1, Math.round(p.durationMs));
  const runMs = Math.max(1000, ms);
  // VUs for the arrival rate at EXPECTED_RTT_MS per request (default 50); bursts get twice that
  // up front and room for answers that slow down as the bucket empties, because k6 starting VUs
  // mid-burst (or dropping iterations for want of one) would stretch the burst and blur B̂.
  // Not more: every VU evaluates the script before the run starts.
  const rttS = (parseIntStrict(__ENV.EXPECTED_RTT_MS) ?? 50) / 1000;
  const need = Math.min(p.count, Math.ceil(p.ratePerRealS * rttS) + 5);
  const max = Math.min(p.count, need * 4);
  return {
    executor: 'constant-arrival-rate',
    rate: p.count,
    timeUnit: `${ms}ms`,
    duration: `${runMs}ms`,
    preAllocatedVUs: p.kind === 'burst' ? Math.min(max, need * 2) : need,
    // Beyond the pre-allocated ones k6 starts VUs only when needed (slowing answers): a burst
    // may use one per request rather than drop one, since a dropped request shortens the phase.
    maxVUs: (p.kind === 'burst' ? p.count : max) + 5,
    startTime,
    // Responses still in flight when the phase ends are waited for, not cut.
    gracefulStop: '30s',
    exec: 'paced',
    env: { PHASE: p.name },
  };
}

const countOf = new Map(schedule.phases.map((p) => [p.name, p.count]));
const B = limits.burst;
const s1 = schedule.phases.find((p) => p.name === 'S1')!;

export const options: Options = {
  scenarios: Object.fromEntries(schedule.phases.map((p) => [p.name, scenarioFor(p)])),
  summaryTrendStats: ['avg', 'min', 'max', 'count'],
  thresholds: {
    // 429 is an expected status (see setResponseCallback): any other failure is a finding.
    http_req_failed: ['rate==0'],
    // k6's own dropped_iterations also counts the no-op tail of short phases (scenarioFor), so
    // "nothing dropped" is checked on what was sent: every paced phase sends its whole count.
    ...Object.fromEntries(
      schedule.phases
        .filter((p) => p.kind === 'burst' || p.kind === 'steady')
        .map((p) => [`lim_${p.name}_sent`, [`count>=${p.count}`]]),
    ),
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
  return { t0: Date.now() };
}

// Per VU: a VU's requests are sequential, so a rise between two of its answers is causal.
const lastByPhase = new Map<string, { rem: number; sentS: number }>();

function send(data: SetupData, phaseName: PhaseName, index: number, retry = false): Sample {
  const phase = schedule.phases.find((p) => p.name === phaseName)!;
  const key = KEYS[phase.key] ?? KEYS[0]!;
  const sent = Date.now();
  const res = http.get(`${BASE_URL}/v1/tickets?limit=1`, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    tags: { phase: phaseName },
  });
  const recv = Date.now();
  const toServer = (ms: number) => ((ms - data.t0) / 1000) * TIME_SCALE;
  const headers = rateHeaders(res.headers);
  const sample: Sample = {
    phase: phaseName,
    key: phase.key,
    index,
    sentS: toServer(sent),
    recvS: toServer(recv),
    status: res.status,
    headers,
    ...(retry ? { retry: true } : {}),
  };
  recordSample(sample, factCtx, sink);
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
    const last = lastByPhase.get(phaseName);
    if (rem !== undefined) {
      if (last && rem > last.rem + Math.ceil(schedule.r * (sample.recvS - last.sentS)))
        sink.add(`lim_${phaseName}_rem_rise`, 1);
      lastByPhase.set(phaseName, { rem, sentS: sample.sentS });
    }
  }
  return sample;
}

export function probe(data: SetupData): void {
  send(data, 'S0', 0);
}

export function paced(data: SetupData): void {
  const phase = (__ENV.PHASE ?? exec.scenario.name) as PhaseName;
  const index = exec.scenario.iterationInTest;
  // Past the phase's planned count: the ≥ 1 s tail of a short phase (see scenarioFor).
  if (index >= countOf.get(phase)!) return;
  send(data, phase, index);
}

export function retry(data: SetupData): void {
  for (let i = 0; i < RETRY_PROBES; i++) {
    const s = send(data, 'S6', i);
    if (s.status !== 429) continue;
    const ra = retryAfterSeconds(s.headers);
    if (ra !== undefined) {
      sleep(ra / TIME_SCALE);
      send(data, 'S6', i + 1, true);
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
    // Planned requests of the paced phases that were never sent (k6's dropped_iterations
    // also counts the no-op tail iterations, which send nothing by design).
    dropped: schedule.phases
      .filter((p) => p.kind === 'burst' || p.kind === 'steady')
      .reduce((n, p) => n + Math.max(0, p.count - (k6.read(`lim_${p.name}_sent`)?.count ?? 0)), 0),
  });
  const lines = result.verdicts.map((v) => `${v.status.padEnd(12)} ${v.id}: ${v.observed}`);
  return {
    [SUMMARY_PATH]: `${JSON.stringify(result, null, 2)}\n`,
    stdout: `plan ${PLAN}: ${result.passed ? 'pass' : 'FAIL'}\n${lines.join('\n')}\n`,
  };
}
