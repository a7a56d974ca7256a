import { redact } from '../../core/redact.ts';
import { counts, type PropertyResult, type ReceiverFuzzResult } from './run-receiver-fuzz.ts';

/** `FAIL` for a failure that fails the run, `warn` for an assumed one that does not. */
function mark(r: PropertyResult, strict: boolean): string {
  if (r.status === 'passed') return 'ok  ';
  if (r.status === 'skipped') return 'skip';
  return counts(r, strict) ? 'FAIL' : 'warn';
}

/** One line per property as it finishes. */
export function formatPropertyLine(r: PropertyResult, strict = false): string {
  const label = `${r.name}${r.form ? ` [${r.form}]` : ''}`;
  const extra =
    r.status === 'skipped'
      ? 'time budget spent'
      : `${r.cases} cases, ${r.requests} requests${r.interrupted ? ', cut short by the time budget' : ''}`;
  return `${mark(r, strict)} ${label.padEnd(48)} ${r.provenance.padEnd(10)} ${extra}`;
}

/** The closing summary with every counterexample transcript; already redacted, redacted again to be sure. */
export function formatReceiverFuzzReport(result: ReceiverFuzzResult): string {
  const failed = result.properties.filter((p) => p.status === 'failed');
  const skipped = result.properties.filter((p) => p.status === 'skipped');
  const out: string[] = [];
  for (const f of failed) {
    const fails = counts(f, result.strict);
    const title = fails
      ? `${f.provenance} rule broken`
      : 'assumed, not failing the run (fails with --strict)';
    out.push(
      '',
      `--- ${f.name}${f.form ? ` [${f.form}]` : ''}: ${title}; minimal counterexample after ${f.shrinks} shrinks`,
      ...(f.why ? [`    why assumed: ${f.why}`] : []),
      ...(f.cause ? [`    ${f.cause}`] : []),
      f.counterexample ?? '',
    );
  }
  const held = result.properties.length - failed.length - skipped.length;
  out.push(
    '',
    `receiver fuzz ${result.url}: ${result.passed ? 'PASS' : 'FAIL'} — ${held} held, ${result.failed} failed, ${result.warnings} warning${result.warnings === 1 ? '' : 's'} (assumed${result.strict ? '' : '; --strict fails them'}), ${skipped.length} skipped; ${result.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s; seed ${result.seed} (replay with FC_SEED=${result.seed})`,
  );
  return redact(out.join('\n'));
}
