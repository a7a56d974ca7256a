/**
 * How `harness diff-spec` reads in each format (compat/findings does the writing): spec changes,
 * with old and new pointers, and the 🧩 mark on elements that were our assumption.
 */
import { diffFailure } from './as-failure.ts';
import {
  cell,
  code,
  countByLevel,
  type FindingsView,
  type Format,
  failing,
  type Level,
  renderFindings,
} from '../findings/index.ts';
import type { Finding } from './types.ts';

export { countByLevel, failing, type Format };

export interface ReportMeta {
  /** How the old version was named on the command line (file or `REF:path`). */
  old: string;
  new: string;
  /** Lowest level that fails the run; default `ERR`. */
  failOn?: Level;
}

function view(meta: ReportMeta): FindingsView<Finding> {
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

export function render(format: Format, findings: readonly Finding[], meta: ReportMeta): string {
  return renderFindings(
    format,
    view(meta),
    `diff-spec ${meta.old} → ${meta.new}`,
    findings,
    meta.failOn,
  );
}
