/**
 * How much of the target's data a gate run read, per area and in total — list pages, the records
 * on them, their bytes (core/http/read-tally.ts) — kept in summary.json (`reads`) and printed, so
 * a run against a long-lived staging shows it read a bounded part of it. Contracts: what each
 * Playwright worker counted (raw/reads-<pid>.jsonl); fuzz: the harness process over the fuzz area.
 */
import { addReadStats, emptyReadStats, type ReadStats } from '../core/http/read-tally.ts';
import type { ReadCount } from '../report/summary.ts';

export function readCount(byArea: Record<string, ReadStats | undefined>): ReadCount {
  const areas = Object.fromEntries(
    Object.entries(byArea).filter((e): e is [string, ReadStats] => e[1] !== undefined),
  );
  return {
    total: Object.values(areas).reduce((a, b) => addReadStats(a, b), emptyReadStats()),
    byArea: areas,
  };
}
