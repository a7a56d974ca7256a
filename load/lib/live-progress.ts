/**
 * The progress of a plan-limit run while it runs, the same for both engines: per phase what was
 * sent, accepted (2xx) and rejected (429), and a running estimate — the burst once S1 hit its
 * first 429 (accepts of S1, refill not yet corrected), the rate from the accepts of S2 over their
 * time span. The Node driver tallies its samples; the k6 engine reads the same counters from k6's
 * REST API (load/k6-progress.ts). The final, corrected numbers are the estimators' (B̂, r̂).
 */
import type { PlanName } from './plans.ts';
import type { LoadResult } from './result.ts';
import type { Sample } from './sample.ts';
import { PHASE_NAMES, type PhaseName } from './schedule.ts';

export interface PhaseTally {
  sent: number;
  ok: number;
  rej: number;
  /** Server seconds of the first and last accept (for the running rate). */
  firstOkS?: number;
  lastOkS?: number;
}

export type Tally = Partial<Record<PhaseName, PhaseTally>>;

export interface LiveProgress {
  plan: PlanName;
  /** The phase running now (the last one that sent anything), or 'done'. */
  phase: PhaseName | 'done';
  /** Waiting out the idle period before `phase` (its first request not sent yet). */
  waiting?: boolean;
  /** The idle period before `phase`, server seconds, when known (S3, S4). */
  idleS?: number;
  sent: number;
  ok: number;
  rejected: number;
  planned: number;
  /** Accepts of S1 once it met a 429: the burst before the refill correction. */
  burst?: number;
  /** Accepts of S2 per minute of server time, from the first accept to the last. */
  ratePerMin?: number;
}

/** The Node driver's samples as a tally. */
export function tallySamples(samples: readonly Sample[]): Tally {
  const t: Tally = {};
  for (const s of samples) {
    t[s.phase] ??= { sent: 0, ok: 0, rej: 0 };
    const p = t[s.phase]!;
    p.sent++;
    if (s.status === 429) p.rej++;
    else if (s.status >= 200 && s.status < 400) {
      p.ok++;
      const at = (s.sentS + s.recvS) / 2;
      p.firstOkS = Math.min(p.firstOkS ?? at, at);
      p.lastOkS = Math.max(p.lastOkS ?? at, at);
    }
  }
  return t;
}

/** Totals, the running phase and the running estimates of one plan. */
export function liveProgress(
  plan: PlanName,
  planned: number,
  tally: Tally,
  phase?: PhaseName,
  idle: { waiting?: boolean; idleS?: number } = {},
): LiveProgress {
  let sent = 0;
  let ok = 0;
  let rejected = 0;
  let last: PhaseName | undefined;
  for (const name of PHASE_NAMES) {
    const p = tally[name];
    if (!p) continue;
    sent += p.sent;
    ok += p.ok;
    rejected += p.rej;
    if (p.sent > 0) last = name;
  }
  const s1 = tally.S1;
  const s2 = tally.S2;
  const span = s2 && s2.firstOkS !== undefined && s2.lastOkS !== undefined;
  const rate =
    span && s2.ok >= 3 && s2.lastOkS! > s2.firstOkS!
      ? ((s2.ok - 1) / (s2.lastOkS! - s2.firstOkS!)) * 60
      : undefined;
  return {
    plan,
    phase: phase ?? last ?? 'S0',
    ...(idle.waiting ? { waiting: true } : {}),
    ...(idle.idleS !== undefined ? { idleS: idle.idleS } : {}),
    sent,
    ok,
    rejected,
    planned,
    ...(s1 && s1.rej > 0 ? { burst: s1.ok } : {}),
    ...(rate !== undefined ? { ratePerMin: rate } : {}),
  };
}

/** A finished run as its last progress: its counts, and the estimators' B̂ and r̂. */
export function resultProgress(r: LoadResult): LiveProgress {
  const sum = (f: (p: LoadResult['phases'][number]) => number) =>
    r.phases.reduce((n, p) => n + f(p), 0);
  const burst = r.estimates.burst?.value;
  const rate = r.estimates.rate.perMin;
  return {
    plan: r.plan,
    phase: 'done',
    sent: r.requests.sent,
    ok: sum((p) => p.accepted),
    rejected: sum((p) => p.rejected),
    planned: r.requests.planned,
    ...(burst != null ? { burst: Math.round(burst * 10) / 10 } : {}),
    ...(Number.isFinite(rate) ? { ratePerMin: rate } : {}),
  };
}

/**
 * What each phase does, in the words of DESIGN.md's load section (B = burst, r = the plan rate):
 * the progress line names phases by these, never by their ids (S2b means nothing to a reader).
 */
export function phaseLabel(
  phase: PhaseName | 'done',
  o: { waiting?: boolean; idleS?: number } = {},
): string {
  const idle = o.idleS !== undefined ? `${Math.round(o.idleS)} s ` : '';
  if (o.waiting && (phase === 'S3' || phase === 'S4')) return `idle ${idle}then burst`;
  switch (phase) {
    case 'S0':
      return 'probe';
    case 'S1':
      return 'burst';
    case 'S0w':
      return 'probe of another workspace';
    case 'S5':
      return 'second key';
    case 'S5w':
      return 'another workspace';
    case 'S2':
      return 'overdrive 4×rate';
    case 'S2b':
      return 'sustained 0.9×rate';
    case 'D1':
      return 'drain';
    case 'S3':
    case 'S4':
      return o.idleS !== undefined ? `burst after ${idle}idle` : 'burst after idle';
    case 'S6':
      return 'retry after 429';
    case 'done':
      return 'done';
  }
}

/** The estimate part: `burst ≈ 201, rate ≈ 120.4/min`, or shorter (`B≈201 r≈120.4`). */
function estimates(p: LiveProgress, short: boolean): string[] {
  const e = [
    ...(p.burst !== undefined ? [short ? `B≈${p.burst}` : `burst ≈ ${p.burst}`] : []),
    ...(p.ratePerMin !== undefined
      ? [short ? `r≈${p.ratePerMin.toFixed(1)}` : `rate ≈ ${p.ratePerMin.toFixed(1)}/min`]
      : []),
  ];
  return e.length ? e : [short ? '…' : 'estimating'];
}

/**
 * `team overdrive 4×rate 412/791 sent, 298 2xx, 114 429, burst ≈ 201, rate ≈ 120.4/min`; given a
 * `width`, the longest of the full, the short and the shortest form that fits (the last cut with
 * an ellipsis if even it does not), so a plan's figures show on a narrow terminal.
 */
export function progressText(p: LiveProgress, width = Number.POSITIVE_INFINITY): string {
  const planned = p.planned || '?';
  const phase = phaseLabel(p.phase, p);
  if (p.sent === 0 && p.phase !== 'done' && !p.waiting)
    return fit([`${p.plan} starting (${planned} planned)`, `${p.plan} starting`], width);
  const forms = [
    [
      `${p.plan} ${phase} ${p.sent}/${planned} sent`,
      `${p.ok} 2xx`,
      `${p.rejected} 429`,
      ...estimates(p, false),
    ].join(', '),
    `${p.plan} ${phase} ${p.sent}/${planned} · ${p.ok} 2xx · ${p.rejected} 429 · ${estimates(p, true).join(' ')}`,
    `${p.plan} ${phase} ${p.sent}/${planned} 2xx ${p.ok} 429 ${p.rejected} ${estimates(p, true).join(' ')}`,
    `${p.plan} ${p.sent}/${planned} 2xx ${p.ok} 429 ${p.rejected} ${estimates(p, true).join(' ')}`,
  ];
  return fit(forms, width);
}

/** The first form no longer than `width`, else the last one cut to it. */
function fit(forms: readonly string[], width: number): string {
  const len = (t: string) => [...t].length;
  const found = forms.find((f) => len(f) <= width);
  if (found !== undefined) return found;
  const last = [...forms.at(-1)!];
  return width < 1 ? '' : `${last.slice(0, width - 1).join('')}…`;
}
