/**
 * The receiver fuzz's results in the run report's one failure shape (src/checks/types.ts):
 * every failed property is a documented failure named `fuzz.<property>`, its counterexample the
 * repro; a property the time budget cut short is listed as not run.
 */
import type { Failure } from '../../src/checks/types.ts';
import type { ReceiverFuzzResult } from './run-receiver-fuzz.ts';

export function receiverFailures(r: ReceiverFuzzResult): Failure[] {
  return r.properties
    .filter((p) => p.status === 'failed')
    .map((p) => ({
      check: `fuzz.${p.name}`,
      provenance: 'documented',
      rule: p.rule,
      received: p.reason ?? 'property failed',
      expected: 'the property holds',
      ...(p.counterexample ? { repro: p.counterexample } : {}),
    }));
}

export function receiverNotRun(r: ReceiverFuzzResult): Array<{ name: string; reason: string }> {
  return r.properties
    .filter((p) => p.status === 'skipped')
    .map((p) => ({ name: `fuzz.${p.name}`, reason: 'time budget exhausted' }));
}
