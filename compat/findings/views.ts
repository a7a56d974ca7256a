/**
 * How each tool's findings read in every format (report.ts does the writing): what differs
 * between `harness diff-spec` (spec changes, old and new pointers, the 🧩 mark on elements that
 * were our assumption) and `harness compare` (behaviour changes between two snapshots, every one
 * observed, with the baseline and current values) — their words, columns and case names.
 */
import { valueText, whereText } from '../../core/compatibility.ts';
import type { Level, Leveled } from '../../core/level.ts';
import type { CompareFinding } from '../compare/types.ts';
import type { Finding } from '../diff/types.ts';
import { compareFailure, diffFailure } from './as-failure.ts';
import { cell, code, type FindingsView, type Format, renderFindings } from './report.ts';

export interface ReportMeta {
  /** How the old version was named on the command line (file or `REF:path`). */
  old: string;
  new: string;
  /** Lowest level that fails the run; default `ERR`. */
  failOn?: Level;
}

function diffView(meta: ReportMeta): FindingsView<Finding> {
  return {
    tool: 'diff-spec',
    subject: { old: meta.old, new: meta.new },
    verdictKey: 'breaking',
    heading: '## OpenAPI compatibility report',
    subjectLine: `\`${cell(meta.old)}\` → \`${cell(meta.new)}\``,
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

export interface CompareMeta {
  /** How the baseline was named (a path). */
  baseline: string;
  current: string;
  /** Lowest level that fails the run. Default `ERR`. */
  failOn?: Level;
}

function compareView(meta: CompareMeta): FindingsView<CompareFinding> {
  return {
    tool: 'compare',
    subject: { baseline: meta.baseline, current: meta.current },
    verdictKey: 'changed',
    heading: '## Behaviour compatibility report',
    subjectLine: `\`${cell(meta.baseline)}\` → \`${cell(meta.current)}\` (all findings *observed*)`,
    said: {
      failing: (n, failOn) =>
        `**Behaviour changed for clients:** ${n} finding(s) at or above ${failOn}.`,
      below: (failOn) => `**No finding at or above ${failOn}.**`,
      none: '**No behaviour change.**',
    },
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

/** A tool's report in `format`: its view of the findings, under a title naming the two inputs. */
const report =
  <F extends Leveled & { rule: string; message: string }, M extends { failOn?: Level }>(
    view: (meta: M) => FindingsView<F>,
    title: (meta: M) => string,
  ) =>
  (format: Format, findings: readonly F[], meta: M): string =>
    renderFindings(format, view(meta), title(meta), findings, meta.failOn);

/** `harness diff-spec`'s report in `format`. */
export const renderDiff = report(diffView, (m) => `diff-spec ${m.old} → ${m.new}`);
/** `harness compare`'s report in `format`. */
export const renderCompare = report(compareView, (m) => `compare ${m.baseline} → ${m.current}`);
