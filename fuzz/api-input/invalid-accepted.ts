/**
 * A body the spec calls invalid that the target accepted (2xx): which rule that breaks. A lax
 * deployment — one that validates only what the docs state and ignores the rest (an update field
 * of the wrong type, an unknown field, a field over the assumed length) — is right by the docs
 * and differs from our assumptions, so each such case is a warning under its assumed rule: U26
 * for a body over the size limit (validation.too-large-413), U20 for malformed JSON
 * (validation.malformed-400) and for any other schema violation (validation.status-422). Only
 * where the docs give the rule is it documented: the creation input's required fields, their
 * types and the priority enum, and a creation body that is not JSON at all — the contract suite's
 * validation.invalid-rejected, judged by the same check. A mislabelled Content-Type on a valid
 * body is no schema violation (the reference deployment takes one in its stride): not judged.
 */
import { checks } from '../../core/checks/index.ts';
import type { CheckName } from '../../core/checks/all.ts';
import type { Exchange } from '../../core/checks/types.ts';
import type { BodyCase } from '../arbitraries/api-body-arb.ts';
import type { ApiInputOperation } from './operations.ts';
import { type CaseProblem, catalogueRule, problem } from './rules.ts';

const PRIORITIES: readonly unknown[] = ['low', 'normal', 'high'];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What makes a creation body invalid by the docs' "Ticket creation input" table (subject and
 * requester required, each field of its type, priority one of low, normal, high), or undefined
 * when the docs allow it (what they do not show — lengths, the requester's keys — is assumed).
 */
export function documentedCreationProblem(sent: unknown): string | undefined {
  if (sent === undefined) return 'the body is not JSON';
  if (!isRecord(sent)) return 'the body is not a JSON object';
  if (!('subject' in sent)) return 'subject is missing';
  if (typeof sent.subject !== 'string') return 'subject is not a string';
  if (!('requester' in sent)) return 'requester is missing';
  if (!isRecord(sent.requester)) return 'requester is not an object';
  if ('message' in sent && typeof sent.message !== 'string') return 'message is not a string';
  if ('priority' in sent && !PRIORITIES.includes(sent.priority))
    return 'priority is not one of low, normal, high';
  if (
    'tags' in sent &&
    !(Array.isArray(sent.tags) && sent.tags.every((t) => typeof t === 'string'))
  )
    return 'tags is not an array of strings';
  return undefined;
}

/** The rule an accepted, schema-invalid body breaks, or undefined (not accepted, or valid). */
export function acceptedInvalidProblem(
  operation: ApiInputOperation,
  c: Pick<BodyCase, 'kind' | 'note'>,
  ex: Exchange,
  sent: unknown,
  schemaValid: boolean,
): CaseProblem | undefined {
  const status = ex.response?.status;
  if (status === undefined || status < 200 || status >= 300) return undefined;
  if (schemaValid || c.kind === 'media-type') return undefined;
  const what = `the ${c.kind} body (${c.note})`;
  const documented = operation === 'createTicket' ? documentedCreationProblem(sent) : undefined;
  const name: CheckName = documented
    ? 'validation.invalid-rejected'
    : c.kind === 'over-body-limit'
      ? 'validation.too-large-413'
      : sent === undefined
        ? 'validation.malformed-400'
        : 'validation.status-422';
  const v = checks.get(name).run(ex, { what });
  if (!v) return undefined;
  return problem(
    catalogueRule(name, v, ex),
    `${v.received}; expected ${v.expected}${documented ? ` (${documented})` : ''}`,
  );
}
