/**
 * The three mutation scores, side by side, from one set of results:
 *
 *   raw         killed / scored — Stryker's score: every mutant the gate did not pass, over every
 *               mutant run (compile errors and fault switches are not run, so not scored);
 *   noticed     (killed + survivors the gate reported) / scored — a survivor counts when the gate
 *               reported an assumption mismatch its baseline (the unmutated code) did not, unless
 *               the triage says that mismatch named something else than what the mutant changed;
 *   documented  documented kills / (documented kills + gaps) — a kill counts only when a
 *               documented check failed (not a contract test that did not finish, not an ERROR or
 *               a timeout: those are the machine's or the server's end, not a rule the gate
 *               named); a gap is a survivor that broke a documented rule (and, until triaged,
 *               every untriaged one).
 */
import {
  type GateFile,
  isKilled,
  type MutantResult,
  type Report,
  survivors,
  type TriageFile,
  keyed,
} from './results.ts';

/**
 * A failed check that is no documented rule's verdict: a contract test that did not finish timed
 * out on a busy machine as readily as on a broken server (gate.ts tries such a run again).
 */
export const TIMING_CHECKS: ReadonlySet<string> = new Set(['harness.test-completed']);

/** What killed a mutant, from the one line scripts/mutation/gate.ts printed (its statusReason). */
export function killers(m: MutantResult): string[] {
  if (m.status === 'Timeout') return ['timeout (Stryker)'];
  const reason = m.statusReason ?? '';
  const last = reason.split(' | then ').pop() ?? '';
  const failed = /failed: ([^·]+)/.exec(last)?.[1];
  if (failed)
    return failed
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (/^ERROR/.test(last)) {
    const why = /error: ([^·]+)/.exec(last)?.[1] ?? 'the run could not finish';
    return [
      `ERROR: ${why
        .replace(/ \(before that:.*$/, '')
        .trim()
        .slice(0, 90)}`,
    ];
  }
  return ['(no reason recorded)'];
}

/** Killed because a documented check failed. */
export function documentedKill(m: MutantResult): boolean {
  if (m.status !== 'Killed') return false;
  const reason = m.statusReason ?? '';
  const last = reason.split(' | then ').pop() ?? '';
  if (!/^FAIL/.test(last)) return false;
  return killers(m).some((k) => !TIMING_CHECKS.has(k));
}

/**
 * Whether the gate reported a surviving mutant: from its recorded findings (gate.json) when
 * there are some, else from the triage's `mismatch` (results measured before findings were kept).
 */
export function noticedSurvivor(
  file: string,
  key: string,
  gate: GateFile,
  triage: TriageFile,
): { noticed: boolean; from: 'gate' | 'triage' | 'none' } {
  const t = triage.survivors[key];
  const found = gate.mutants[key];
  if (found) {
    const baseline = new Set(gate.files[file]?.baseline?.mismatches ?? []);
    const own = found.mismatches.filter((c) => !baseline.has(c));
    return { noticed: own.length > 0 && t?.mismatch !== false, from: 'gate' };
  }
  if (t?.mismatch !== undefined) return { noticed: t.mismatch, from: 'triage' };
  return { noticed: false, from: 'none' };
}

export interface Figure {
  num: number;
  den: number;
}

export interface Scores {
  raw: Figure;
  noticed: Figure;
  documented: Figure;
  /** Scored survivors whose "noticed" came from the triage, not from a recorded gate run. */
  noticedFromTriage: number;
  /** Kills that were no documented failure: left out of the documented figure. */
  undocumentedKills: number;
  survivors: number;
  gaps: number;
  untriaged: number;
}

export function scores(report: Report, triage: TriageFile, gate: GateFile): Scores {
  const all = keyed(report);
  const killed = all.filter((k) => isKilled(k.mutant));
  const surv = survivors(report);
  let noticed = 0;
  let noticedFromTriage = 0;
  for (const s of surv) {
    const n = noticedSurvivor(s.file, s.key, gate, triage);
    if (n.noticed) noticed++;
    if (n.from === 'triage') noticedFromTriage++;
  }
  const docKills = killed.filter((k) => documentedKill(k.mutant)).length;
  const untriaged = surv.filter((s) => !triage.survivors[s.key]).length;
  const gaps = surv.filter((s) => triage.survivors[s.key]?.verdict === 'gap').length + untriaged;
  const scored = killed.length + surv.length;
  return {
    raw: { num: killed.length, den: scored },
    noticed: { num: killed.length + noticed, den: scored },
    documented: { num: docKills, den: docKills + gaps },
    noticedFromTriage,
    undocumentedKills: killed.length - docKills,
    survivors: surv.length,
    gaps,
    untriaged,
  };
}

export function pct(f: Figure): string {
  return f.den === 0 ? 'n/a' : `${((100 * f.num) / f.den).toFixed(1)} %`;
}
