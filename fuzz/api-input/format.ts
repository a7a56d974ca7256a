/** The API input fuzz's console report: one line per operation, and each failure's minimal counterexample. */
import type { ApiInputFuzzResult } from './api-input.ts';
import type { ClassCount } from './cases.ts';

/**
 * The input classes of one operation, a line per family (`text: emoji 4, cjk 3, …`), and the
 * classes no case carried, named on their own line so they cannot be missed.
 */
export function formatClasses(classes: readonly ClassCount[], indent = '    '): string[] {
  const families = [...new Set(classes.map((c) => c.family))];
  const lines = families.map(
    (f) =>
      `${indent}${f}: ${classes
        .filter((c) => c.family === f)
        .map((c) => `${c.name} ${c.cases}`)
        .join(', ')}`,
  );
  const never = classes.filter((c) => c.cases === 0);
  if (never.length > 0)
    lines.push(`${indent}NOT SENT (0 cases): ${never.map((c) => c.name).join(', ')}`);
  return lines;
}

export function formatApiInputFuzz(r: ApiInputFuzzResult): string {
  const lines = [
    `api input fuzz: ${r.passed ? 'PASS' : 'FAIL'} — seed ${r.seed}, ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s`,
    ...(r.inconclusive ? [`  ${r.inconclusive}`] : []),
  ];
  for (const o of r.operations) {
    const s = o.stats;
    lines.push(
      `  ${o.status.padEnd(7)} ${o.operation} (${o.schema}): ${o.cases} cases${o.interrupted ? ' (time budget reached)' : ''}; schema-valid ${s.schemaValid.accepted} accepted / ${s.schemaValid.rejected} rejected; invalid ${s.schemaInvalid.accepted} accepted / ${s.schemaInvalid.rejected} rejected; statuses ${JSON.stringify(s.statuses)}`,
    );
    if (o.notRun) lines.push(`    ${o.notRun}`);
    lines.push(
      `    input classes (cases that carried each; ${o.sampled} of the ${o.cases} cases from the class sampler):`,
      ...formatClasses(o.classes ?? [], '      '),
    );
    if (o.error)
      lines.push(`    harness error (a bug to report, not a verdict on the target): ${o.error}`);
    if (o.counterexample) {
      lines.push(
        `    minimal counterexample [${o.broken?.check ?? 'fuzz.api-input'}, ${o.broken?.provenance ?? 'documented'}] (replay with FC_SEED=${r.seed}): ${o.reason}`,
      );
      lines.push(...o.counterexample.transcript.split('\n').map((l) => `      ${l}`));
    }
    for (const w of o.warnings ?? []) {
      lines.push(
        `    assumed, not failing the run: [${w.broken.check}] ${w.cases} case${w.cases === 1 ? '' : 's'}, the shortest: ${w.reason}`,
      );
      lines.push(...w.counterexample.transcript.split('\n').map((l) => `      ${l}`));
    }
  }
  return lines.join('\n');
}
