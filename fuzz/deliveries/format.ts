/** The delivery check's result for a console: the verdict, the tallies, the minimal counterexample. */
import type { DeliveryCheckResult } from './types.ts';

const indented = (transcript: string) => transcript.split('\n').map((l) => `    ${l}`);

export function formatDeliveryCheck(r: DeliveryCheckResult): string {
  const lines = [
    `webhook delivery check: ${r.passed ? 'PASS' : 'FAIL'} — ${r.deliveries} deliveries from ${r.numRuns} scenarios, seed ${r.seed}${r.interrupted ? ' (time budget reached)' : ''}`,
    `  verified over the received bytes: X-Service-Signature ${r.verified.prefixed}, service-signature ${r.verified.plain}; rejected ${r.rejected.prefixed} and ${r.rejected.plain}`,
    ...(r.inconclusive ? [`  ${r.inconclusive}`] : []),
  ];
  for (const [label, t] of Object.entries(r.endpoints))
    lines.push(`  endpoint ${label}: ${t.deliveries} deliveries, ${t.ok} ok, ${t.failed} failed`);
  for (const m of r.assumptionMismatches ?? [])
    lines.push(
      `  assumed, not failing the run: [${m.check}] ${m.deliveries} of ${r.deliveries} deliveries, the first (${m.endpoint}${m.event ? `, ${m.event}` : ''}): ${m.first}`,
    );
  if (r.counterexample) {
    lines.push(
      `  minimal counterexample (replay with FC_SEED=${r.seed}): ${r.counterexample.reason}`,
    );
    lines.push(`  input: ${JSON.stringify(r.counterexample.input)}`);
    lines.push(...indented(r.counterexample.transcript));
  }
  // The counterexample is the smallest failing case, whatever failed in it (a missing delivery
  // on a busy machine, say); a wrong delivery captured anywhere in the run is shown as well.
  const first = r.failures[0];
  if (first && !r.counterexample?.reason.includes(first.problems.join('; '))) {
    lines.push(
      `  first failing delivery (${r.failedDeliveries} failed in the run): ${first.problems.join('; ')}`,
    );
    lines.push(...indented(first.transcript));
  }
  return lines.join('\n');
}
