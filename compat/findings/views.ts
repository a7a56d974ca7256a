/**
 * How each tool's findings read in every format (report.ts does the writing): what differs
 * between `harness diff-spec` (spec changes, old and new pointers, the 🧩 mark on elements that
 * were our assumption) and `harness compare` (behaviour changes between two snapshots, every one
 * observed, with the baseline and current values) — their words, columns and case names.
 */
import { type CompareNote, notesText, valueText, whereText } from '../../core/compatibility.ts';
import type { Level, Leveled } from '../../core/level.ts';
import type { CompareFinding } from '../compare/types.ts';
import type { Finding } from '../diff/types.ts';
import { compareFailure, diffFailure } from './as-failure.ts';
import { cell, code, type FindingsView, type Format, renderFindings } from './report.ts';

/** `old`, `next`: how the two versions were named on the command line (file or `REF:path`). */
function diffView(old: string, next: string): FindingsView<Finding> {
  return {
    tool: 'diff-spec',
    subject: { old, new: next },
    verdictKey: 'breaking',
    heading: '## OpenAPI compatibility report',
    subjectLine: `\`${cell(old)}\` → \`${cell(next)}\``,
    said: {
      failing: (n, failOn) => `**Breaking for clients:** ${n} finding(s) at or above ${failOn}.`,
      below: (failOn) => `**No finding at or above ${failOn}.**`,
      none: '**No changes that affect clients.**',
    },
    notes: (findings) => {
      const assumed = findings.filter((f) => f.assumed).length;
      return assumed > 0
        ? [
            `${assumed} finding(s) touch an element marked \`x-provenance: assumed\` (🧩): the old ` +
              'shape was our assumption where the service docs say "not shown", not a documented promise.',
          ]
        : [];
    },
    columns: ['Change', 'Where', 'Old', 'New'],
    row: (f) => [
      `${cell(f.message)}${f.assumed ? ` 🧩 assumed${f.assumed.gap ? ` (${f.assumed.gap})` : ''}` : ''}`,
      cell(f.where.join('<br>')),
      cell(code(f.old)),
      cell(code(f.new)),
    ],
    caseName: (f) => `${f.rule} ${f.new ?? f.old ?? ''}`,
    emptyCase: 'no client-visible changes',
    asFailure: diffFailure,
  };
}

/** `baseline`: how the baseline was named (a path); `notes`: what the comparison left out. */
function compareView(
  baseline: string,
  current: string,
  notes: readonly CompareNote[] = [],
): FindingsView<CompareFinding> {
  return {
    tool: 'compare',
    subject: { baseline, current },
    verdictKey: 'changed',
    heading: '## Behaviour compatibility report',
    subjectLine: `\`${cell(baseline)}\` → \`${cell(current)}\` (all findings *observed*)`,
    said: {
      failing: (n, failOn) =>
        `**Behaviour changed for clients:** ${n} finding(s) at or above ${failOn}.`,
      below: (failOn) => `**No finding at or above ${failOn}.**`,
      none: notes.length
        ? '**No behaviour change in what both runs observed.**'
        : '**No behaviour change.**',
    },
    // Left out is not unchanged: said under the counts, so nobody reads a partial run as clean.
    notes: () =>
      notes.length
        ? [
            `Left out of the comparison (${notes.length} note(s); not findings):`,
            notesText(notes)
              .map((l) => `- ${cell(l)}`)
              .join('\n'),
          ]
        : [],
    ...(notes.length ? { json: { notes } } : {}),
    columns: ['Change', 'Where', 'Baseline', 'Current'],
    row: (f) => [
      cell(f.message),
      cell(whereText(f.pointer)),
      cell(code(valueText(f.baseline))),
      cell(code(valueText(f.current))),
    ],
    caseName: (f) => `${f.rule} ${whereText(f.pointer)}`,
    emptyCase: 'no behaviour change',
    asFailure: compareFailure,
  };
}

/**
 * A tool's report in `format` of the findings between inputs `a` and `b`: its view of them,
 * under a title naming the two; `failOn` is the lowest level that fails the run (default `ERR`).
 */
const report =
  <F extends Leveled & { rule: string; message: string }>(
    view: (a: string, b: string) => FindingsView<F>,
  ) =>
  (format: Format, findings: readonly F[], a: string, b: string, failOn?: Level): string => {
    const v = view(a, b);
    return renderFindings(format, v, `${v.tool} ${a} → ${b}`, findings, failOn);
  };

/** `harness diff-spec`'s report in `format`. */
export const renderDiff = report(diffView);
/** `harness compare`'s report in `format`, with the notes of what it left out. */
export function renderCompare(
  format: Format,
  findings: readonly CompareFinding[],
  baseline: string,
  current: string,
  failOn?: Level,
  notes: readonly CompareNote[] = [],
): string {
  const v = compareView(baseline, current, notes);
  return renderFindings(format, v, `${v.tool} ${baseline} → ${current}`, findings, failOn);
}
