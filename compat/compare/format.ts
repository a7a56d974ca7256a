/**
 * How `harness compare` reads in each format (compat/findings does the writing): behaviour
 * changes between two snapshots, every one observed, with the baseline and current values.
 */
import { compareFailure } from './as-failure.ts';
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
import { valueText, whereText } from '../../core/compatibility.ts';
import type { CompareFinding } from './types.ts';

export { countByLevel, failing, type Format };

export interface CompareMeta {
  /** How the baseline was named (a path). */
  baseline: string;
  current: string;
  /** Lowest level that fails the run. Default `ERR`. */
  failOn?: Level;
}

function view(meta: CompareMeta): FindingsView<CompareFinding> {
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

export function render(
  format: Format,
  findings: readonly CompareFinding[],
  meta: CompareMeta,
): string {
  return renderFindings(
    format,
    view(meta),
    `compare ${meta.baseline} → ${meta.current}`,
    findings,
    meta.failOn,
  );
}

export const toMarkdown = (findings: readonly CompareFinding[], meta: CompareMeta) =>
  render('md', findings, meta);
