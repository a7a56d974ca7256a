/**
 * An area of a run (contracts, load, fuzz, …) as every step reports it and the reports read it:
 * its verdict, one headline, the failures in the one failure shape, and what did not run.
 */
import type { Failure } from './checks/types.ts';
import type { Level } from './level.ts';
import { redact } from './redact.ts';
import { boundedFailure, SHOWN_RECEIVED, shownText } from './shown.ts';

/** `error`: the area could not run to its end (the target stopped answering, a crash, the time limit). */
export type AreaVerdict = 'pass' | 'fail' | 'warn' | 'not-run' | 'error';

export interface AreaSummary {
  verdict: AreaVerdict;
  /** One line for the table. */
  headline: string;
  documentedFailures: Failure[];
  assumptionMismatches: Failure[];
  notRun: Array<{ name: string; reason: string }>;
  /** Why the area could not run to its end (verdict `error`); what it found before is kept. */
  error?: string;
  /** Area-specific data (load results, fuzz statistics, …). */
  details?: unknown;
  /**
   * An area whose findings carry levels rather than provenance (compatibility): the highest level
   * found. The verdict table shows it in place of a pass or warn, so the row never reads milder
   * than its detail.
   */
  level?: Level;
}

/** An area with nothing filed yet: its step files failures (`fileFailures`) and judges last. */
export function emptyArea(verdict: AreaVerdict = 'pass', headline = ''): AreaSummary {
  return { verdict, headline, documentedFailures: [], assumptionMismatches: [], notRun: [] };
}

/** Files each failure of the one failure shape by its provenance, its texts bounded (shown.ts). */
export function fileFailures(area: AreaSummary, fs: readonly Failure[]): void {
  for (const f of fs)
    (f.provenance === 'documented' ? area.documentedFailures : area.assumptionMismatches).push(
      boundedFailure(f),
    );
}

/** A documented failure fails the area, an assumption mismatch warns, else it passes. */
export function judged(documented: number, assumed: number): AreaVerdict {
  return documented > 0 ? 'fail' : assumed > 0 ? 'warn' : 'pass';
}

/** Dedupes failures by check + received text (the same rule broken by many exchanges reads once). */
export function uniqueFailures(fs: Failure[]): Failure[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const k = `${f.check}\u0000${f.received}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * An area that could not run to its end: `reason` says why; `found` (what the area saw before)
 * is kept — its failures still count.
 */
export function errorArea(reason: string, found?: AreaSummary): AreaSummary {
  return {
    ...emptyArea(),
    ...found,
    verdict: 'error',
    error: reason,
    headline: found?.headline ? `${reason} (before that: ${found.headline})` : reason,
  };
}

/** An area that did not run at all (skipped, or impossible on this target); `name`: what did not run. */
export function notRunArea(reason: string, name = 'area'): AreaSummary {
  return { ...emptyArea('not-run', reason), notRun: [{ name, reason }] };
}

/** The first line of what was thrown, bounded and redacted (a message may quote an answer). */
export function reasonOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const nl = msg.indexOf('\n');
  const first = (nl < 0 ? msg : msg.slice(0, nl)).trim();
  return redact(
    shownText(first || (e instanceof Error ? e.name : 'unknown error'), SHOWN_RECEIVED),
  );
}
