/** The verdict table printed at the end of `harness run`. */
import { formatFailure } from '../checks/failure.ts';
import { redact } from '../redact.ts';
import type { Summary } from './summary.ts';

const MARK: Record<string, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  'not-run': 'NOT RUN',
  error: 'ERROR',
};

export function renderConsole(s: Summary, outDir: string): string {
  const lines: string[] = [
    '',
    '=== Support Ticketing Service v1 — contract and limits verdict ===',
  ];
  lines.push(
    `target: ${s.target.embedded ? 'embedded reference deployment' : s.target.baseUrl}${s.target.faults.length ? ` (faults: ${s.target.faults.join(', ')})` : ''}`,
  );
  lines.push(...unusableBlock(s), '');
  lines.push(
    `${'area'.padEnd(10)} ${'verdict'.padEnd(8)} ${'documented'.padStart(10)} ${'assumed'.padStart(8)} ${'not run'.padStart(8)}`,
  );
  for (const [name, a] of Object.entries(s.areas)) {
    lines.push(
      `${name.padEnd(10)} ${MARK[a.verdict]!.padEnd(8)} ${String(a.documentedFailures.length).padStart(10)} ${String(a.assumptionMismatches.length).padStart(8)} ${String(a.notRun.length).padStart(8)}   ${a.headline}`,
    );
  }
  const documented = Object.values(s.areas).flatMap((a) => a.documentedFailures);
  const assumed = Object.values(s.areas).flatMap((a) => a.assumptionMismatches);
  if (documented.length) {
    // Documented rules broken, and behaviour changes when the run gates on them (observed).
    lines.push('', `--- failing the gate (${documented.length}) ---`);
    for (const f of documented.slice(0, 20)) lines.push(formatFailure(f), '');
    if (documented.length > 20) lines.push(`… and ${documented.length - 20} more in summary.json`);
  }
  if (assumed.length) {
    lines.push(
      '',
      `--- differs from assumption (${assumed.length})${s.strict ? ' — fatal (--strict)' : ' — reported, not fatal'} ---`,
    );
    for (const f of assumed.slice(0, 12))
      lines.push(`[${f.check}] Received: ${f.received} / Assumed: ${f.expected}`);
    if (assumed.length > 12) lines.push(`… and ${assumed.length - 12} more in summary.json`);
  }
  const errors = Object.entries(s.areas).filter(([, a]) => a.verdict === 'error' && !s.unusable);
  if (errors.length) {
    lines.push('', `--- could not run to the end (${errors.length}) ---`);
    for (const [area, a] of errors) lines.push(`${area}: ${a.error ?? a.headline}`);
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
  lines.push(
    '',
    `reports: ${outDir}/index.html, summary.json, snapshot.json, junit.xml${s.tests.total ? ', playwright-html/' : ''}`,
  );
  lines.push(verdictLine(s), '');
  return redact(lines.join('\n'));
}

/** An unusable target, said first: nothing after it is about the contract. */
function unusableBlock(s: Summary): string[] {
  if (!s.unusable) return [];
  return [
    '',
    'TARGET UNUSABLE: no check ran, so this run says nothing about the contract.',
    `  cause:       ${s.unusable.cause}`,
    `  what to fix: ${s.unusable.fix}`,
  ];
}

/** The last line CI shows: the verdict, the exit code, and for exit 2 why the run could not run. */
function verdictLine(s: Summary): string {
  const head = `verdict: ${s.verdict.toUpperCase()} (exit ${s.exitCode}) in ${(s.durationMs / 1000).toFixed(1)} s`;
  if (s.unusable) return `${head} — target unusable: ${s.unusable.cause}`;
  const errored = Object.entries(s.areas)
    .filter(([, a]) => a.verdict === 'error')
    .map(([n]) => n);
  if (errored.length === 0) return head;
  return `${head} — ${errored.join(', ')} could not run to the end (see above)`;
}
