/**
 * The one output layer of leveled findings (`harness diff-spec`, `harness compare`): Markdown
 * for a PR or chat comment, JSON for machines, JUnit so CI shows failing findings red. Each tool
 * supplies only what differs — its words, its columns and how it names a finding.
 */
import { formatFailure } from '../../core/checks/failure.ts';
import type { Failure } from '../../core/checks/types.ts';
import { redact } from '../../core/redact.ts';
import { type JunitCase, junitXml } from '../../core/junit.ts';
import { countByLevel, failing, type Level, LEVELS, type Leveled } from '../../core/level.ts';

export type Format = 'md' | 'json' | 'junit';

export interface FindingsView<F extends Leveled & { rule: string; message: string }> {
  /** `diff-spec` or `compare`: the JUnit suite and class names. */
  tool: string;
  /** What was compared, in the JSON report's keys (`{old, new}` or `{baseline, current}`). */
  subject: Record<string, string>;
  /** The JSON key of the verdict (`breaking`, `changed`). */
  verdictKey: string;
  heading: string;
  /** The line under the heading (what was compared), Markdown. */
  subjectLine: string;
  /** The verdict sentences: some at or above the threshold / findings below it / none. */
  said: {
    failing: (n: number, failOn: Level) => string;
    below: (failOn: Level) => string;
    none: string;
  };
  /** Paragraphs after the counts (e.g. how many touch assumed elements). */
  notes?: (findings: readonly F[]) => string[];
  /** More members of the JSON report (e.g. what a comparison left out). */
  json?: Record<string, unknown>;
  /** Markdown table: header cells, and one row's cells after the rule (already Markdown). */
  columns: readonly string[];
  row: (f: F) => string[];
  /** JUnit: a finding's test-case name; the case name when there is none. */
  caseName: (f: F) => string;
  emptyCase: string;
  /** The finding in the run's one failure shape: JUnit shows it as the run report does. */
  asFailure: (f: F) => Failure;
}

/** A Markdown table cell: pipes and backslashes escaped, one line. */
export function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Inline code, or the dash of a missing value. */
export function code(s: string | undefined): string {
  return s === undefined || s === '—' ? '—' : `\`${s.replace(/`/g, "'")}\``;
}

const ICON: Record<Level, string> = { ERR: '🔴 ERR', WARN: '🟠 WARN', INFO: '⚪ INFO' };

export function findingsJson<F extends Leveled & { rule: string; message: string }>(
  view: FindingsView<F>,
  findings: readonly F[],
  failOn: Level = 'ERR',
): string {
  const report = {
    ...view.subject,
    failOn,
    [view.verdictKey]: failing(findings, failOn).length > 0,
    counts: countByLevel(findings),
    findings,
    ...view.json,
  };
  return redact(`${JSON.stringify(report, null, 2)}\n`);
}

/** Verdict first, then one table per level, most severe first. */
export function findingsMarkdown<F extends Leveled & { rule: string; message: string }>(
  view: FindingsView<F>,
  findings: readonly F[],
  failOn: Level = 'ERR',
): string {
  const c = countByLevel(findings);
  const bad = failing(findings, failOn).length;
  const lines = [
    view.heading,
    '',
    view.subjectLine,
    '',
    bad > 0
      ? view.said.failing(bad, failOn)
      : findings.length > 0
        ? view.said.below(failOn)
        : view.said.none,
    '',
    `ERR ${c.ERR} · WARN ${c.WARN} · INFO ${c.INFO}`,
  ];
  for (const note of view.notes?.(findings) ?? []) lines.push('', note);
  for (const level of LEVELS) {
    const rows = findings.filter((f) => f.level === level);
    if (rows.length === 0) continue;
    lines.push('', `### ${ICON[level]} (${rows.length})`, '');
    lines.push(
      `| Rule | ${view.columns.join(' | ')} |`,
      `|---|${view.columns.map(() => '---').join('|')}|`,
    );
    for (const f of rows) lines.push(`| \`${f.rule}\` | ${view.row(f).join(' | ')} |`);
  }
  return redact(`${lines.join('\n')}\n`);
}

/** One test case per finding; those at or above `failOn` are failures, the others carry their detail. */
export function findingsJunit<F extends Leveled & { rule: string; message: string }>(
  view: FindingsView<F>,
  title: string,
  findings: readonly F[],
  failOn: Level = 'ERR',
): string {
  const cases: JunitCase[] = findings.map((f) => {
    const name = view.caseName(f);
    const classname = `${view.tool}.${f.level}`;
    const body = formatFailure(view.asFailure(f));
    return failing([f], failOn).length > 0
      ? { name, classname, failure: { type: f.level, message: f.message, body } }
      : { name, classname, systemOut: body };
  });
  if (cases.length === 0) cases.push({ name: view.emptyCase, classname: view.tool });
  return junitXml({ [title]: cases }, view.tool);
}

export function renderFindings<F extends Leveled & { rule: string; message: string }>(
  format: Format,
  view: FindingsView<F>,
  title: string,
  findings: readonly F[],
  failOn: Level = 'ERR',
): string {
  if (format === 'json') return findingsJson(view, findings, failOn);
  if (format === 'junit') return findingsJunit(view, title, findings, failOn);
  return findingsMarkdown(view, findings, failOn);
}
