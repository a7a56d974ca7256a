/** Turning a Violation into a Failure, and a Failure into the text people read. */
import { redact } from '../redact.ts';
import { validate } from '../schemas/registry.ts';
import { boundedFailure, boundedJson, SHOWN_RECEIVED, SHOWN_REPRO, shownText } from '../shown.ts';
import { curlRepro } from './repro.ts';
import type { Check, Exchange, Failure, Violation } from './types.ts';

export function toFailure(check: Check<any>, v: Violation, ex?: Exchange): Failure {
  // Bounded before redaction: a check may put a whole answer in its Received.
  return {
    check: check.name,
    provenance: check.provenance,
    rule: check.rule,
    received: redact(shownText(v.received, SHOWN_RECEIVED)),
    expected: redact(shownText(v.expected, SHOWN_RECEIVED)),
    repro: ex?.repro
      ? redact(shownText(ex.repro, SHOWN_REPRO))
      : ex?.request
        ? curlRepro(ex)
        : undefined,
  };
}

/** Per provenance: what a failure is called, and the name of what it was held to. */
export const FAILURE_WORDS: Record<Failure['provenance'], { title: string; label: string }> = {
  documented: { title: 'documented rule broken', label: 'Documented' },
  assumed: { title: 'differs from assumption', label: 'Assumed' },
  observed: { title: 'changed since the baseline', label: 'Baseline' },
};

export function formatFailure(failure: Failure): string {
  const f = boundedFailure(failure);
  const { title, label } = FAILURE_WORDS[f.provenance];
  const lines = [
    `[${f.check}] ${title}`,
    `  Received:   ${f.received}`,
    `  ${label}:${' '.repeat(Math.max(1, 11 - label.length))}${f.expected}`,
    `  Rule:       ${f.rule}`,
  ];
  if (f.repro) lines.push(`  Repro:      ${f.repro}`);
  return redact(lines.join('\n'));
}

/**
 * Short one-line summary of a value for "Received …" texts: its JSON, cut at `max` characters.
 * Built only as far as it shows (core/shown.ts): a 10 MiB list or an array nested ten thousand
 * deep costs what `max` characters cost, and never throws.
 */
export function show(v: unknown, max = 200): string {
  return boundedJson(v, max);
}

/** The first schema issues of `payload` against `schema`, as a Violation (response bodies and webhook payloads alike). */
export function schemaViolation(schema: string, payload: unknown) {
  const issues = validate(schema, payload);
  if (issues.length === 0) return undefined;
  return {
    received: issues
      .slice(0, 3)
      .map((i) => `${i.pointer || '/'} ${i.message}`)
      .join('; '),
    expected: `a valid ${schema}`,
  };
}
