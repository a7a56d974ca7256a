/** The delivery check's result for a console: the verdict, the tallies, the minimal counterexample. */
import type { DeliveryCheckResult } from './types.ts';

const indented = (transcript: string) => transcript.split('\n').map((l) => `    ${l}`);

export function formatDeliveryCheck(r: DeliveryCheckResult): string {
  const lines = [
    `webhook delivery check: ${r.passed ? 'PASS' : 'FAIL'} — ${r.deliveries} deliveries from ${r.numRuns} scenarios, seed ${r.seed}${r.interrupted ? ' (time budget reached)' : ''}`,
    `  verified over the received bytes: X-Service-Signature ${r.verified.prefixed}, service-signature ${r.verified.plain}; rejected ${r.rejected.prefixed} and ${r.rejected.plain}`,
  ];
  for (const [label, t] of Object.entries(r.endpoints))
    lines.push(`  endpoint ${label}: ${t.deliveries} deliveries, ${t.ok} ok, ${t.failed} failed`);
  if (r.counterexample) {
    lines.push(
      `  minimal counterexample (replay with FC_SEED=${r.seed}): ${r.counterexample.reason}`,
    );
    lines.push(`  input: ${JSON.stringify(r.counterexample.input)}`);
    lines.push(...indented(r.counterexample.transcript));
  } else if (r.failures[0]) {
    lines.push(`  first failing delivery: ${r.failures[0].problems.join('; ')}`);
    lines.push(...indented(r.failures[0].transcript));
  }
  return lines.join('\n');
}
