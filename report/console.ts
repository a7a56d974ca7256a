/**
 * The verdict printed at the end of `harness run`: a short table that reads at a glance — one row
 * per area, columns aligned whatever the area names, never wider than `WIDTH` — and the details
 * under it: each area's headline (the load area one line per plan), then the failures.
 */
import { formatFailure } from '../core/checks/failure.ts';
import { redact } from '../core/redact.ts';
import { shownText } from '../core/shown.ts';
import { terminalSafe } from '../core/terminal-safe.ts';
import type { AreaSummary } from '../core/area.ts';
import { replayLines } from './replay.ts';
import { type Summary, targetLines } from './summary.ts';

/** The widest line of the table and of the details under it. */
export const WIDTH = 100;

const MARK: Record<AreaSummary['verdict'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  'not-run': 'NOT RUN',
  error: 'ERROR',
};

/** The table's columns after the area name: header, width, value of a row. */
const COLUMNS: [string, number, (a: AreaSummary) => string][] = [
  ['verdict', 7, verdictCell],
  ['documented', 10, (a) => String(a.documentedFailures.length)],
  ['assumed', 7, (a) => String(a.assumptionMismatches.length)],
  ['not run', 7, (a) => String(a.notRun.length)],
];

/**
 * The verdict cell: a leveled area (compatibility) that neither failed nor could not run shows
 * the highest level it found — `ERR`, not the `WARN` of a change that does not gate.
 */
export function verdictCell(a: AreaSummary): string {
  if (a.level && (a.verdict === 'pass' || a.verdict === 'warn')) return a.level;
  return MARK[a.verdict];
}

/** The verdict table: the area column as wide as the longest name, counts right-aligned. */
export function verdictTable(areas: Record<string, AreaSummary>): string[] {
  const nameWidth = Math.max('area'.length, ...Object.keys(areas).map((n) => n.length));
  const row = (name: string, cells: string[]) =>
    [
      name.padEnd(nameWidth),
      ...cells.map((c, i) => (i === 0 ? c.padEnd(COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1]))),
    ]
      .join('  ')
      .trimEnd();
  return [
    row(
      'area',
      COLUMNS.map(([h]) => h),
    ),
    ...Object.entries(areas).map(([name, a]) =>
      row(
        name,
        COLUMNS.map(([, , v]) => v(a)),
      ),
    ),
  ];
}

/** Each area's headline under the table, wrapped to `WIDTH`; the load area one plan a line. */
export function areaDetails(areas: Record<string, AreaSummary>): string[] {
  const nameWidth = Math.max(...Object.keys(areas).map((n) => n.length));
  const indent = ' '.repeat(nameWidth + 2);
  const lines: string[] = [];
  for (const [name, a] of Object.entries(areas)) {
    if (!a.headline) continue;
    // The load headline joins one summary line per plan with " | ".
    const parts = a.headline.split(' | ');
    parts.forEach((part, i) => {
      // Continuation lines are indented two more, so every line fits in WIDTH.
      const wrapped = wrap(part.replace(/\s{2,}/g, ' '), WIDTH - indent.length - 2, ' · ');
      wrapped.forEach((w, j) => {
        const head = i === 0 && j === 0 ? name.padEnd(nameWidth + 2) : indent;
        lines.push(`${head}${j > 0 ? '  ' : ''}${w}`);
      });
    });
  }
  return lines;
}

/**
 * Breaks `text` into lines of at most `width`, at `sep` (the load line's " · ") where it can,
 * else at spaces; a word longer than the width is cut.
 */
export function wrap(text: string, width: number, sep = ' '): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(sep)) {
    const next = line ? `${line}${sep}${word}` : word;
    if (next.length <= width || !line) line = next;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  return out.flatMap((l) => {
    if (l.length <= width) return [l];
    if (sep !== ' ') return wrap(l, width, ' ');
    const cut: string[] = [];
    for (let i = 0; i < l.length; i += width) cut.push(l.slice(i, i + width));
    return cut;
  });
}

export function renderConsole(s: Summary, outDir: string): string {
  const target = `${s.target.embedded ? 'embedded reference deployment' : s.target.baseUrl}${s.target.faults.length ? ` (faults: ${s.target.faults.join(', ')})` : ''}`;
  const lines: string[] = [
    '',
    '=== Support Ticketing Service v1 — contract and limits verdict ===',
    ...wrap(`target: ${target}`, WIDTH),
    ...unusableBlock(s),
    '',
    ...verdictTable(s.areas),
    '',
    ...areaDetails(s.areas),
    ...targetLines(s).flatMap((l) => wrap(l, WIDTH)),
    ...leftObjects(s),
  ];
  const documented = Object.values(s.areas).flatMap((a) => a.documentedFailures);
  const assumed = Object.values(s.areas).flatMap((a) => a.assumptionMismatches);
  if (documented.length) {
    // Documented rules broken, and behaviour changes when the run gates on them (observed).
    lines.push('', `--- failing the gate (${documented.length}) ---`);
    // Said once: where an embedded run's repros replay (report/replay.ts).
    if (s.replay && documented.some((f) => f.repro)) lines.push(...replayLines(s.replay), '');
    for (const f of documented.slice(0, 20)) lines.push(formatFailure(f), '');
    if (documented.length > 20) lines.push(`… and ${documented.length - 20} more in summary.json`);
  }
  if (assumed.length) {
    lines.push(
      '',
      `--- differs from assumption (${assumed.length})${s.strict ? ' — fatal (--strict)' : ' — reported, not fatal'} ---`,
    );
    for (const f of assumed.slice(0, 12))
      lines.push(
        `[${f.check}] Received: ${shownText(f.received, 500)} / Assumed: ${shownText(f.expected, 500)}`,
      );
    if (assumed.length > 12) lines.push(`… and ${assumed.length - 12} more in summary.json`);
  }
  const errors = Object.entries(s.areas).filter(([, a]) => a.verdict === 'error' && !s.unusable);
  if (errors.length) {
    lines.push('', `--- could not run to the end (${errors.length}) ---`);
    for (const [area, a] of errors) lines.push(`${area}: ${a.error ?? a.headline}`);
  }
  if (s.unchecked?.length) {
    // Not a failure of the rule, and not a pass: the target's answers kept the gate from looking.
    lines.push(
      '',
      `--- not checked: the target's own answers kept these documented rules from being checked (${s.unchecked.length}) ---`,
    );
    for (const u of s.unchecked.slice(0, 12))
      lines.push(...wrap(`[${u.check}] ${u.rule} — ${shownText(u.why, 500)}`, WIDTH));
    if (s.unchecked.length > 12)
      lines.push(`… and ${s.unchecked.length - 12} more in summary.json`);
  }
  const notRun = Object.entries(s.areas).flatMap(([area, a]) =>
    a.notRun.map((n) => `${area}: ${n.name} — ${n.reason}`),
  );
  // An unusable target: the block above says why nothing ran.
  if (notRun.length && !s.unusable) {
    lines.push('', `--- not run (${notRun.length}) ---`);
    for (const n of notRun.slice(0, 15)) lines.push(n);
    if (notRun.length > 15) lines.push(`… and ${notRun.length - 15} more in summary.json`);
  }
  if (s.matrix) {
    const c = s.matrix.counts;
    lines.push(
      '',
      ...wrap(
        `rules × operations: ${c.checked} cells checked (${c.failed} with a failure), ${c.notReached} not reached on this target, ${c.notApplicable} not applicable — index.html#matrix, summary.json "matrix"`,
        WIDTH,
      ),
    );
  }
  if (s.rules?.length) lines.push(...wrap(rulesLine(s.rules), WIDTH));
  lines.push(
    '',
    `reports: ${outDir}/`,
    `  index.html, summary.json, snapshot.json, junit.xml${s.tests.total ? ', playwright-html/' : ''}`,
  );
  // One line, never wrapped: CI logs and scripts read the verdict from it.
  lines.push(verdictLine(s), '');
  return terminalSafe(redact(lines.join('\n')));
}

/** The objects the run could not clean, a few by name (summary.json lists up to 50). */
function leftObjects(s: Summary): string[] {
  const left = s.leftOnTarget?.left ?? [];
  const shown = left
    .slice(0, 5)
    .map((l) => `  left: ${l.kind} ${l.id}${l.area ? ` (${l.area})` : ''} — ${l.why}`);
  return left.length > 5 ? [...shown, `  … and ${left.length - 5} more in summary.json`] : shown;
}

/** An unusable target, said first: nothing after it is about the contract. */
function unusableBlock(s: Summary): string[] {
  if (!s.unusable) return [];
  return [
    '',
    'TARGET UNUSABLE: no check ran, so this run says nothing about the contract.',
    ...labelled('  cause:       ', s.unusable.cause),
    ...labelled('  what to fix: ', s.unusable.fix),
  ];
}

/** `label` then `text` wrapped to the console width, continuation lines under the text. */
function labelled(label: string, text: string): string[] {
  return wrap(text, WIDTH - label.length).map(
    (l, i) => `${i === 0 ? label : ' '.repeat(label.length)}${l}`,
  );
}

/** The last line CI shows: the verdict, the exit code, and for exit 2 why the run could not run. */
function verdictLine(s: Summary): string {
  const head = `verdict: ${s.verdict.toUpperCase()} (exit ${s.exitCode}) in ${(s.durationMs / 1000).toFixed(1)} s`;
  if (s.unusable) return `${head} — target unusable: ${s.unusable.cause}`;
  if (s.interrupted)
    return `${head} — ${s.interrupted}: the run did not finish (what it found is above)`;
  const errored = Object.entries(s.areas)
    .filter(([, a]) => a.verdict === 'error')
    .map(([n]) => n);
  // Exit 0 as for a --grep run, but never a clean PASS: documented rules were not checked.
  const partial = s.partial ? ` — partial: ${s.partial} (listed above)` : '';
  // A rule failed (exit 1) says FAIL whatever else; else the gate could not look (exit 2).
  const unchecked =
    s.unchecked?.length && s.exitCode !== 1
      ? ` — ${s.unchecked.length} documented rule${s.unchecked.length === 1 ? '' : 's'} not checked: the target's answers kept the gate from looking (see above)`
      : '';
  if (errored.length === 0) return `${head}${unchecked}${partial}`;
  return `${head} — ${errored.join(', ')} could not run to the end (see above)${unchecked}${partial}`;
}

/** One line: how many documented rules the run looked at, and how many the target kept from it. */
export function rulesLine(rules: NonNullable<Summary['rules']>): string {
  const judged = rules.filter((r) => r.judged > 0).length;
  const kept = rules.filter((r) => r.unchecked).length;
  return `documented rules: ${judged} of ${rules.length} judged in this run${kept ? `, ${kept} kept from being checked by the target's answers` : ''} — per rule, its cells and tests: index.html#rules, summary.json "rules"`;
}
