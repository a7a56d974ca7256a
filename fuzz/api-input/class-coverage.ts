/**
 * How well a run of the API input fuzz covered the input classes (cases.ts): a class that applies
 * to an operation and that no case carried is "not run" in the area, one line per operation with
 * why (the operation failed first, ran out of time, or did not run); the headline says how many
 * (class, operation) pairs were sent.
 */
import type { ApiInputFuzzResult } from './api-input.ts';

type Operations = Pick<ApiInputFuzzResult, 'operations'>;

/** Why an operation's cases stopped before every class was sent. */
function why(o: Operations['operations'][number]): string {
  if (o.status === 'failed') return 'the operation stopped at its first failing case (see it)';
  if (o.interrupted) return 'the time budget ran out before the class sampler was through';
  if (o.status === 'error') return 'the harness failed on a case (see the area error)';
  return 'no case carried it';
}

/**
 * One "not run" entry per operation that ran and left applicable classes unsent (an operation
 * that did not run at all is already listed as such, with why).
 */
export function classesNotSent(r: Operations): Array<{ name: string; reason: string }> {
  return r.operations.flatMap((o) => {
    if (o.status === 'skipped') return [];
    const never = (o.classes ?? []).filter((c) => c.cases === 0).map((c) => c.name);
    return never.length === 0
      ? []
      : [
          {
            name: `fuzz.api-input ${o.operation}: input classes not sent`,
            reason: `0 cases carried ${never.join(', ')}: ${why(o)}`,
          },
        ];
  });
}

/**
 * `input classes 118/118 sent`: pairs of an operation and a class that applies to it, and of
 * those how many some case carried (a class sent to one operation and not to another is short).
 */
export function inputClassesLine(r: Operations): string {
  const all = r.operations.flatMap((o) => o.classes ?? []);
  const sent = all.filter((c) => c.cases > 0).length;
  return `input classes ${sent}/${all.length} sent (class × operation)`;
}
