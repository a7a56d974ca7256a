import { redact } from '../redact.ts';
import { findingsJunit } from '../report/findings-junit.ts';
import { type Finding, LEVEL_RANK, type Level } from './types.ts';

/** Output formats of `harness diff-spec`. */
export type Format = 'md' | 'json' | 'junit';

export interface ReportMeta {
  /** How the old version was named on the command line (file or `REF:path`). */
  old: string;
  new: string;
  /** Lowest level that fails the run; default `ERR`. */
  failOn?: Level;
}

export function countByLevel(findings: readonly Finding[]): Record<Level, number> {
  const c: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const f of findings) c[f.level]++;
  return c;
}

export function failing(findings: readonly Finding[], failOn: Level = 'ERR'): Finding[] {
  return findings.filter((f) => LEVEL_RANK[f.level] >= LEVEL_RANK[failOn]);
}

export function toJson(findings: readonly Finding[], meta: ReportMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const report = {
    old: meta.old,
    new: meta.new,
    failOn,
    breaking: failing(findings, failOn).length > 0,
    counts: countByLevel(findings),
    findings,
  };
  return redact(`${JSON.stringify(report, null, 2)}\n`);
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(s: string | undefined): string {
  return s === undefined ? '—' : `\`${s.replace(/`/g, "'")}\``;
}

const ICON: Record<Level, string> = { ERR: '🔴 ERR', WARN: '🟠 WARN', INFO: '⚪ INFO' };

/** A PR comment: verdict first, then one table per level, most severe first. */
export function toMarkdown(findings: readonly Finding[], meta: ReportMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const c = countByLevel(findings);
  const bad = failing(findings, failOn).length;
  const lines = [
    '## OpenAPI compatibility report',
    '',
    `\`${cell(meta.old)}\` → \`${cell(meta.new)}\``,
    '',
    bad > 0
      ? `**Breaking for clients:** ${bad} finding(s) at or above ${failOn}.`
      : findings.length > 0
        ? `**No finding at or above ${failOn}.**`
        : '**No changes that affect clients.**',
    '',
    `ERR ${c.ERR} · WARN ${c.WARN} · INFO ${c.INFO}`,
  ];
  const assumed = findings.filter((f) => f.assumed).length;
  if (assumed > 0)
    lines.push(
      '',
      `${assumed} finding(s) touch an element marked \`x-provenance: assumed\` (🧩): the old ` +
        'shape was our assumption where the service docs say "not shown", not a documented promise.',
    );
  for (const level of ['ERR', 'WARN', 'INFO'] as const) {
    const rows = findings.filter((f) => f.level === level);
    if (rows.length === 0) continue;
    lines.push('', `### ${ICON[level]} (${rows.length})`, '');
    lines.push('| Rule | Change | Where | Old | New |', '|---|---|---|---|---|');
    for (const f of rows) {
      const mark = f.assumed ? ` 🧩 assumed${f.assumed.gap ? ` (${f.assumed.gap})` : ''}` : '';
      lines.push(
        `| \`${f.rule}\` | ${cell(f.message)}${mark} | ${cell(f.where.join('<br>'))} | ${cell(code(f.old))} | ${cell(code(f.new))} |`,
      );
    }
  }
  return redact(`${lines.join('\n')}\n`);
}

/** One test case per finding; those at or above `failOn` are failures, so CI shows them red. */
export function toJunit(findings: readonly Finding[], meta: ReportMeta): string {
  const failOn = meta.failOn ?? 'ERR';
  const cases = findings.map((f) => ({
    level: f.level,
    name: `${f.rule} ${f.new ?? f.old ?? ''}`,
    message: f.message,
    detail: [
      f.message,
      `old: ${f.old ?? '-'}`,
      `new: ${f.new ?? '-'}`,
      `where: ${f.where.join('; ')}`,
      ...(f.assumed
        ? [`assumed: ${f.assumed.gap ?? ''} (x-provenance at ${f.assumed.pointer})`]
        : []),
    ],
    failing: LEVEL_RANK[f.level] >= LEVEL_RANK[failOn],
  }));
  return findingsJunit(
    'diff-spec',
    `diff-spec ${meta.old} → ${meta.new}`,
    cases,
    'no client-visible changes',
  );
}

export function render(format: Format, findings: readonly Finding[], meta: ReportMeta): string {
  if (format === 'json') return toJson(findings, meta);
  if (format === 'junit') return toJunit(findings, meta);
  return toMarkdown(findings, meta);
}
