/**
 * The receiver fuzz's results in the run report's one failure shape (core/checks/types.ts): every
 * failed property is a failure named `fuzz.<property>` with the property's provenance (an assumed
 * one carries its reason in the rule, and is a warning unless the run is strict), its cause when
 * re-signed requests proved one, and its counterexample as the repro; a property the time budget
 * cut short is listed as not run.
 */
import type { Failure } from '../../core/checks/types.ts';
import type { ReceiverFuzzResult } from './run-receiver-fuzz.ts';

export function receiverFailures(r: ReceiverFuzzResult): Failure[] {
  return r.properties
    .filter((p) => p.status === 'failed')
    .map((p) => ({
      check: `fuzz.${p.name}`,
      provenance: p.provenance,
      rule: p.why ? `${p.rule} (assumed: ${p.why})` : p.rule,
      received: [p.reason ?? 'property failed', p.cause].filter(Boolean).join(' — '),
      expected: 'the property holds',
      ...(p.counterexample ? { repro: p.counterexample } : {}),
    }));
}

export function receiverNotRun(r: ReceiverFuzzResult): Array<{ name: string; reason: string }> {
  return r.properties
    .filter((p) => p.status === 'skipped')
    .map((p) => ({ name: `fuzz.${p.name}`, reason: 'time budget exhausted' }));
}
