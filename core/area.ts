/**
 * An area of a run (contracts, load, fuzz, …) as every step reports it and the reports read it:
 * its verdict, one headline, the failures in the one failure shape, and what did not run.
 */
import type { Failure } from './checks/types.ts';
import { redact } from './redact.ts';

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
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [],
    ...found,
    verdict: 'error',
    error: reason,
    headline: found?.headline ? `${reason} (before that: ${found.headline})` : reason,
  };
}

/** An area that did not run at all (skipped, or impossible on this target). */
export function notRunArea(reason: string): AreaSummary {
  return {
    verdict: 'not-run',
    headline: reason,
    documentedFailures: [],
    assumptionMismatches: [],
    notRun: [{ name: 'area', reason }],
  };
}

/** The first line of what was thrown, redacted. */
export function reasonOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return redact(msg.split('\n')[0]?.trim() || (e instanceof Error ? e.name : 'unknown error'));
}
