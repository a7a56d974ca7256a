/**
 * The API input fuzz's judgement of one case, in two halves. The answer is judged by the
 * registered checks that judge an answer to a body in the contract suite — exchange.no-5xx,
 * exchange.documented-status, exchange.response-schema, validation.problem-body — run over the
 * checks' own Exchange, its operation (statuses, response schemas) read from the spec: one rule,
 * one implementation. And nothing is half done (the ticket count, or the target ticket, read
 * before and after the request): the fuzz's own rules, or the registered merge-patch and
 * stored-message checks' rules. A request that gets no answer at all breaks the first rule.
 * A body the spec calls invalid that the target accepted breaks its assumed rule (U20, U26) or,
 * for the creation input the docs describe, the documented one (invalid-accepted.ts); what such
 * a body did is not held to the merge-patch rule. An accepted, schema-valid creation shows its
 * subject and requester as sent (ticket.subject-echoed, ticket.requester-echoed). A list changes
 * nothing: only its answer is judged. Nothing here throws on a target's answer.
 */
import { checks } from '../../core/checks/index.ts';
import { show } from '../../core/checks/failure.ts';
import { sameJson } from '../../core/json-equal.ts';
import type { Exchange } from '../../core/checks/types.ts';
import type { BodyCaseKind } from '../arbitraries/api-body-arb.ts';
import { acceptedInvalidProblem } from './invalid-accepted.ts';
import type { ApiInputOperation } from './operations.ts';
import { API_INPUT_RULES, type CaseProblem, catalogueRule, problem } from './rules.ts';

/** The registered checks that judge the answer to one request body, in the order reported. */
export const ANSWER_CHECKS = [
  'exchange.no-5xx',
  'exchange.documented-status',
  'exchange.response-schema',
  'validation.problem-body',
] as const;

/** What was sent in a case, as the judge needs it. */
export interface CaseInput {
  kind: BodyCaseKind;
  note: string;
  /** The body is valid against the operation's request schema (tally.ts isSchemaValid). */
  schemaValid: boolean;
}

/**
 * Every rule the case breaks (documented ones first), each with how; empty when it holds. Never
 * throws on what the target sent: deep, huge or oddly typed answers and bodies are data.
 */
export function judgeCase(
  operation: ApiInputOperation,
  ex: Exchange,
  sent: unknown,
  before: unknown,
  after: unknown,
  input: CaseInput = { kind: 'valid', note: 'valid', schemaValid: true },
): CaseProblem[] {
  const r = ex.response;
  if (!r)
    return [problem(API_INPUT_RULES.answered, `no answer (${ex.error ?? 'connection lost'})`)];
  const found: CaseProblem[] = [];
  for (const name of ANSWER_CHECKS) {
    const v = checks.get(name).run(ex, undefined);
    if (v) found.push(problem(catalogueRule(name, v, ex), `${v.received}; expected ${v.expected}`));
  }
  const invalid = acceptedInvalidProblem(operation, input, ex, sent, input.schemaValid);
  if (invalid) found.push(invalid);
  const side = sideEffectProblem(operation, sent, ex, before, after, input.schemaValid);
  if (side) found.push(side);
  found.push(...echoProblems(operation, sent, ex, input.schemaValid));
  return found.sort(
    (a, b) =>
      Number(a.broken.provenance !== 'documented') - Number(b.broken.provenance !== 'documented'),
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * An accepted, schema-valid creation shows the text it was given, character for character: its
 * subject and its requester (the contract suite's ticket.subject-echoed and
 * ticket.requester-echoed, documented). The sampler sends text of every class in both.
 */
function echoProblems(
  operation: ApiInputOperation,
  sent: unknown,
  ex: Exchange,
  schemaValid: boolean,
): CaseProblem[] {
  const status = ex.response!.status;
  if (operation !== 'createTicket' || !schemaValid || status < 200 || status >= 300) return [];
  if (!isRecord(sent) || typeof sent.subject !== 'string' || !isRecord(sent.requester)) return [];
  const requester = sent.requester as { email: string; name?: string };
  const found: CaseProblem[] = [];
  const subject = checks.get('ticket.subject-echoed').run(ex, { sent: sent.subject });
  if (subject)
    found.push(
      problem(
        catalogueRule('ticket.subject-echoed', subject, ex),
        `${subject.received}; expected ${subject.expected}`,
      ),
    );
  const who = checks.get('ticket.requester-echoed').run(ex, { sent: requester });
  if (who)
    found.push(
      problem(
        catalogueRule('ticket.requester-echoed', who, ex),
        `${who.received}; expected ${who.expected}`,
      ),
    );
  return found;
}

/**
 * The "nothing half done" half of the property. What an accepted body did is judged only for a
 * schema-valid one: an invalid body accepted is acceptedInvalidProblem's verdict, and a lax
 * target that ignores the invalid field did right by the docs.
 */
function sideEffectProblem(
  operation: ApiInputOperation,
  sentBody: unknown,
  ex: Exchange,
  before: unknown,
  after: unknown,
  schemaValid: boolean,
): CaseProblem | undefined {
  // A list changes nothing, and nothing is read around it.
  if (operation === 'listTickets') return undefined;
  const status = ex.response!.status;
  const accepted = status >= 200 && status < 300;
  const halfDone = API_INPUT_RULES.nothingHalfDone;
  const mergePatch = catalogueRule('tickets.merge-patch');
  if (operation === 'createTicket') {
    if (typeof before !== 'number' || typeof after !== 'number') return undefined;
    if (!accepted && after !== before)
      return problem(
        halfDone,
        `rejected with ${status}, yet the ticket count went from ${before} to ${after} (a half-created ticket)`,
      );
    if (accepted && after !== before + 1)
      return problem(
        API_INPUT_RULES.createdOnce,
        `accepted, yet the ticket count went from ${before} to ${after} (expected ${before + 1})`,
      );
    return undefined;
  }
  if (!accepted) {
    return sameJson(before, after)
      ? undefined
      : problem(
          halfDone,
          `rejected with ${status}, yet the ticket changed (GET before and after differ)`,
        );
  }
  if (!schemaValid || !isRecord(sentBody)) return undefined;
  const sent = sentBody;
  if (operation === 'updateTicket') {
    const now = isRecord(after) ? after : undefined;
    for (const k of ['subject', 'priority', 'status'] as const) {
      if (k in sent && now?.[k] !== sent[k])
        return problem(
          mergePatch,
          `accepted, but ${k} reads ${show(now?.[k], 120)} instead of the patched ${show(sent[k], 120)}`,
        );
    }
    if (Array.isArray(sent.tags)) {
      const want = new Set(sent.tags);
      const got = new Set(Array.isArray(now?.tags) ? now.tags : []);
      if (want.size !== got.size || [...want].some((t) => !got.has(t)))
        return problem(mergePatch, 'accepted, but the tags read back differ from the patched tags');
    }
    return undefined;
  }
  const m = isRecord(ex.response!.json) ? ex.response!.json : {};
  if (m.body !== sent.body || m.author !== sent.author)
    return problem(
      catalogueRule('tickets.message-stored'),
      'accepted, but the message echoed is not the one sent (body or author differ)',
    );
  return undefined;
}
