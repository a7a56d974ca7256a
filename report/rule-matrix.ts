/**
 * The rule × operation matrix of a run, for summary.json and index.html: one row per rule that
 * declares where it applies (core/checks/applies-to.ts), one column per operation and webhook
 * event of the spec. Each cell is `checked` (how many judgements, how many failed — counted from
 * every check result of the run that carries the column, whichever test made it), `n/a` (the
 * rule does not apply there: why), or `not-reached` (it applies, nothing judged it on this target:
 * the reason the suite recorded, e.g. no read-only key given, a read-only run; `byTarget` when the
 * target's own answer kept it, as a 429 in the rule's place). Rows and columns come from the
 * catalogue and the spec, so both grow without new report code.
 */
import {
  COLUMN_SETS,
  type MatrixColumn,
  type MatrixRule,
  MATRIX_SENDS,
  appliesToColumn,
} from '../core/checks/applies-to.ts';
import type { CheckResult } from '../core/checks/verdict.ts';

/** One cell: judged (passed/failed counts), not applicable, or not reached on this target. */
export type MatrixCell =
  | { state: 'checked'; passed: number; failed: number }
  | { state: 'n/a'; why: string }
  | { state: 'not-reached'; why: string; byTarget?: true };

export interface MatrixRow {
  check: string;
  provenance: string;
  rule: string;
  /** Where it applies and what the matrix sends for it, in words. */
  appliesTo: string;
  /** By column id. */
  cells: Record<string, MatrixCell>;
}

export interface RuleMatrix {
  columns: Array<{ id: string; kind: 'operation' | 'webhook'; label: string; provenance: string }>;
  rows: MatrixRow[];
  /** Cells per state, over the whole table. */
  counts: { checked: number; failed: number; notReached: number; notApplicable: number };
}

/** A cell the suite could not reach, as contracts/fixtures.ts `notReached` records it. */
export interface UnreachedRow {
  check: string;
  column: string;
  reason: string;
  project?: string;
  /** The target's own answer kept the rule from judging it (report/rule-coverage.ts). */
  byTarget?: boolean;
}

const NOT_JUDGED =
  'no test of this run judged it here (a --grep run, a test that did not run, or an event never triggered)';

function appliesToText(r: MatrixRule): string {
  const where = COLUMN_SETS[r.appliesTo.columns].describe;
  const sends = r.appliesTo.send?.map((s) => MATRIX_SENDS[s].describe);
  return sends ? `${where}; sent: ${sends.join(' / ')}` : `${where}; every answer`;
}

export function buildRuleMatrix(
  columns: readonly MatrixColumn[],
  rules: readonly MatrixRule[],
  results: readonly CheckResult[],
  unreached: readonly UnreachedRow[] = [],
): RuleMatrix {
  const tally = new Map<string, { passed: number; failed: number }>();
  for (const r of results) {
    if (r.column === undefined) continue;
    const k = `${r.check}\u0000${r.column}`;
    const t = tally.get(k) ?? { passed: 0, failed: 0 };
    if (r.passed) t.passed++;
    else t.failed++;
    tally.set(k, t);
  }
  const why = new Map<string, UnreachedRow>();
  for (const u of unreached) {
    const k = `${u.check}\u0000${u.column}`;
    if (!why.has(k)) why.set(k, u);
  }
  const counts = { checked: 0, failed: 0, notReached: 0, notApplicable: 0 };
  const rows = rules.map((r): MatrixRow => {
    const cells: Record<string, MatrixCell> = {};
    for (const c of columns) {
      const k = `${r.name}\u0000${c.id}`;
      const t = tally.get(k);
      let cell: MatrixCell;
      if (!appliesToColumn(r, c)) {
        cell = { state: 'n/a', why: COLUMN_SETS[r.appliesTo.columns].notApplicable(c) };
        counts.notApplicable++;
      } else if (t) {
        cell = { state: 'checked', ...t };
        counts.checked++;
        if (t.failed > 0) counts.failed++;
      } else {
        const u = why.get(k);
        cell = {
          state: 'not-reached',
          why: u?.reason ?? NOT_JUDGED,
          ...(u?.byTarget ? { byTarget: true as const } : {}),
        };
        counts.notReached++;
      }
      cells[c.id] = cell;
    }
    return {
      check: r.name,
      provenance: r.provenance,
      rule: r.rule,
      appliesTo: appliesToText(r),
      cells,
    };
  });
  return {
    columns: columns.map((c) => ({
      id: c.id,
      kind: c.kind,
      label: c.label,
      provenance: c.provenance,
    })),
    rows,
    counts,
  };
}
