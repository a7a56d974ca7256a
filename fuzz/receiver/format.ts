import { redact } from '../../src/redact.ts';
import type { PropertyResult, ReceiverFuzzResult } from './run-receiver-fuzz.ts';

/** One line per property as it finishes. */
export function formatPropertyLine(r: PropertyResult): string {
  const label = `${r.name}${r.form ? ` [${r.form}]` : ''}`;
  const mark = r.status === 'passed' ? 'ok  ' : r.status === 'failed' ? 'FAIL' : 'skip';
  const extra =
    r.status === 'skipped'
      ? 'time budget spent'
      : `${r.cases} cases, ${r.requests} requests${r.interrupted ? ', cut short by the time budget' : ''}`;
  return `${mark} ${label.padEnd(48)} ${extra}`;
}

/** The closing summary with every counterexample transcript; already redacted, redacted again to be sure. */
export function formatReceiverFuzzReport(result: ReceiverFuzzResult): string {
  const failed = result.properties.filter((p) => p.status === 'failed');
  const skipped = result.properties.filter((p) => p.status === 'skipped');
  const out: string[] = [];
  for (const f of failed) {
    out.push(
      '',
      `--- ${f.name}${f.form ? ` [${f.form}]` : ''}: minimal counterexample after ${f.shrinks} shrinks`,
      f.counterexample ?? '',
    );
  }
  out.push(
    '',
    `receiver fuzz ${result.url}: ${result.properties.length - failed.length - skipped.length} passed, ${failed.length} failed, ${skipped.length} skipped; ${result.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s; seed ${result.seed} (replay with FC_SEED=${result.seed})`,
  );
  return redact(out.join('\n'));
}
