/**
 * The Node engine: runs one plan's schedule (load/lib) over an undici Pool, keeps every sample
 * and judges them with load/lib — the same judgement k6's handleSummary runs. The steps: probe
 * and size the plan, wait for a full bucket, warm up, the paced phases, the retry probe, judge.
 */
import {
  buildSchedule,
  type LiveProgress,
  liveProgress,
  type LoadResult,
  type PlanOverrides,
  parseIntStrict,
  RETRY_PROBES,
  resolvePlan,
  retryAfterSeconds,
  type Sample,
  type Schedule,
  type ScheduleOptions,
  tallySamples,
} from './lib/index.ts';
import { judgeNodeRun } from './node-result.ts';
import { performance, waitUntil } from '../core/http/pacer.ts';
import { runPacedPhases } from './paced-phases.ts';
import { PlanSender, type SenderOptions } from './plan-sender.ts';

/** Longest Retry-After (server seconds) the S6 retry probe waits out. */
const MAX_RETRY_WAIT_S = 120;

export interface NodePlanOptions extends SenderOptions {
  enterprise?: PlanOverrides;
  schedule?: ScheduleOptions;
  /** Called once at the start with a reader of the live progress (phase, counts, estimates). */
  onProgress?: (read: () => LiveProgress) => void;
}

export interface NodePlanRun {
  result: LoadResult;
  samples: Sample[];
  /** Send time minus scheduled time, ms, for every paced request. */
  lagsMs: number[];
}

export async function runPlanNode(o: NodePlanOptions): Promise<NodePlanRun> {
  const startedAt = new Date().toISOString();
  const sender = new PlanSender(o);
  o.onProgress?.(() =>
    liveProgress(o.plan, sender.planned, tallySamples(sender.samples), sender.phase, {
      waiting: sender.waiting,
      idleS: sender.idleS,
    }),
  );
  try {
    const schedule = await probeAndPlan(sender, o);
    await sender.warmUp();
    const lagsMs = await runPacedPhases(sender, schedule, o.signal);
    await retryProbe(sender, schedule, o);
    const result = judgeNodeRun(
      sender,
      { schedule, lagsMs },
      { baseUrl: o.baseUrl, keys: o.keys.length, budget: o.budget.limit, startedAt },
    );
    return { result, samples: sender.samples, lagsMs };
  } finally {
    await sender.close();
  }
}

/**
 * S0 first, alone: it sizes Enterprise and tells whether the key is fresh. Reserves the plan's
 * requests, and waits until a half-empty bucket is full again: it silently ruins every estimate.
 */
async function probeAndPlan(sender: PlanSender, o: NodePlanOptions): Promise<Schedule> {
  o.budget.reserve(1, `the probe of plan ${o.plan}`);
  const probe = await sender.send({ name: 'S0', key: 0 }, 0);
  const limits = resolvePlan(o.plan, o.plan === 'enterprise' ? o.enterprise : {}, {
    limitHeader: parseIntStrict(probe?.headers.limit),
    remaining: parseIntStrict(probe?.headers.remaining),
  });
  const schedule = buildSchedule(limits, {
    timeScale: o.timeScale,
    keys: o.keys.length,
    otherWorkspace: o.otherWorkspaceKey !== undefined,
    ...o.schedule,
  });
  o.budget.reserve(schedule.totalRequests - 1, `plan ${o.plan}`);
  sender.planned = schedule.totalRequests;
  // S0w: what another workspace's own bucket holds before key A's burst (its own key, its own
  // bucket: it takes nothing from key A's).
  const s0w = schedule.phases.find((p) => p.name === 'S0w');
  if (s0w) await sender.send(s0w, 0);
  const rem = parseIntStrict(probe?.headers.remaining);
  if (rem !== undefined && rem < limits.burst - 1) {
    const waitMs = (((limits.burst - 1 - rem) / schedule.r) * 1000) / o.timeScale;
    await waitUntil(performance.now() + waitMs, o.signal);
    sender.delayStart(waitMs);
  }
  return schedule;
}

/** S6: until a 429, then once more after its Retry-After. */
async function retryProbe(sender: PlanSender, schedule: Schedule, o: NodePlanOptions) {
  const s6 = schedule.phases.find((p) => p.name === 'S6');
  if (!s6) return;
  sender.phase = 'S6';
  sender.idleS = undefined;
  for (let i = 0; i < RETRY_PROBES; i++) {
    const s = await sender.send(s6, i);
    if (!s) break;
    if (s.status !== 429) continue;
    const ra = retryAfterSeconds(s.headers);
    // A Retry-After longer than any plan needs to refill one token is not waited out: the
    // run would only hit its time limit. The retry is then skipped (and so its verdict).
    if (ra !== undefined && ra <= MAX_RETRY_WAIT_S) {
      const waitMs = (ra * 1000) / o.timeScale;
      await waitUntil(performance.now() + waitMs, o.signal);
      await sender.send(s6, i + 1, true);
    }
    break;
  }
}
