/**
 * Output of `harness compare`: Markdown (a PR or chat comment), JSON (machines), JUnit (CI
 * shows failing findings red). Same shape as `harness diff-spec`'s reports.
 */
import { redact } from '../redact.ts';
import { findingsJunit } from '../report/findings-junit.ts';
import { type CompareFinding, type CompareLocation, LEVEL_RANK, type Level } from './types.ts';

export type Format = 'md' | 'json' | 'junit';

export interface CompareMeta {
  /** How the baseline was named (a path). */
  baseline: string;
  current: string;
  /** Lowest level that fails the run. Default `ERR`. */
  failOn?: Level;
}

export function countByLevel(findings: readonly CompareFinding[]): Record<Level, number> {
  const c: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const f of findings) c[f.level]++;
  return c;
}

export function failing(findings: readonly CompareFinding[], failOn: Level = 'ERR') {
  return findings.filter((f) => LEVEL_RANK[f.level] >= LEVEL_RANK[failOn]);
}

/** `GET /v1/tickets › 200 › /data/*\/id`: one line a person can follow into the snapshot. */
export function whereText(p: CompareLocation): string {
  return [
    p.operation,
    p.status,
    p.header && `header ${p.header}`,
    p.contentType && `content type ${p.contentType}`,
    p.field && `field ${p.field}`,
    p.gap,
    p.probe && `“${p.probe}”`,
    p.plan && `plan ${p.plan}`,
    p.property,
  ]
    .filter(Boolean)
    .join(' › ');
}

/** A short JSON rendering of a value (long ones are cut: the JSON report has them whole). */
export function valueText(v: unknown, max = 80): string {
  if (v === undefined) return '—';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function toJson(findings: readonly CompareFinding[], meta: CompareMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const report = {
    baseline: meta.baseline,
    current: meta.current,
    failOn,
    changed: failing(findings, failOn).length > 0,
    counts: countByLevel(findings),
    findings,
  };
  return redact(`${JSON.stringify(report, null, 2)}\n`);
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(s: string): string {
  return s === '—' ? s : `\`${s.replace(/`/g, "'")}\``;
}

const ICON: Record<Level, string> = { ERR: '🔴 ERR', WARN: '🟠 WARN', INFO: '⚪ INFO' };

export function toMarkdown(findings: readonly CompareFinding[], meta: CompareMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const c = countByLevel(findings);
  const bad = failing(findings, failOn).length;
  const lines = [
    '## Behaviour compatibility report',
    '',
    `\`${cell(meta.baseline)}\` → \`${cell(meta.current)}\` (all findings *observed*)`,
    '',
    bad > 0
      ? `**Behaviour changed for clients:** ${bad} finding(s) at or above ${failOn}.`
      : findings.length > 0
        ? `**No finding at or above ${failOn}.**`
        : '**No behaviour change.**',
    '',
    `ERR ${c.ERR} · WARN ${c.WARN} · INFO ${c.INFO}`,
  ];
  for (const level of ['ERR', 'WARN', 'INFO'] as const) {
    const rows = findings.filter((f) => f.level === level);
    if (rows.length === 0) continue;
    lines.push('', `### ${ICON[level]} (${rows.length})`, '');
    lines.push('| Rule | Change | Where | Baseline | Current |', '|---|---|---|---|---|');
    for (const f of rows)
      lines.push(
        `| \`${f.rule}\` | ${cell(f.message)} | ${cell(whereText(f.pointer))} | ${cell(code(valueText(f.baseline)))} | ${cell(code(valueText(f.current)))} |`,
      );
  }
  return redact(`${lines.join('\n')}\n`);
}

/** One test case per finding; those at or above `failOn` are failures. */
export function toJunit(findings: readonly CompareFinding[], meta: CompareMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const cases = findings.map((f) => ({
    level: f.level,
    name: `${f.rule} ${whereText(f.pointer)}`,
    message: f.message,
    detail: [
      f.message,
      `where: ${whereText(f.pointer)}`,
      `baseline: ${valueText(f.baseline, 500)}`,
      `current: ${valueText(f.current, 500)}`,
      'provenance: observed',
    ],
    failing: LEVEL_RANK[f.level] >= LEVEL_RANK[failOn],
  }));
  return findingsJunit(
    'compare',
    `compare ${meta.baseline} → ${meta.current}`,
    cases,
    'no behaviour change',
  );
}

export function render(format: Format, findings: readonly CompareFinding[], meta: CompareMeta) {
  if (format === 'json') return toJson(findings, meta);
  if (format === 'junit') return toJunit(findings, meta);
  return toMarkdown(findings, meta);
}
