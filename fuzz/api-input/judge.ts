/**
 * The API input fuzz's property for one case, in two halves: the answer is a 2xx with a
 * representation valid against the spec, or a 4xx with a valid problem body whose `status` is the
 * HTTP status — never a 5xx, never no answer; and nothing is half done (the ticket count, or the
 * target ticket, read before and after the request).
 */
import { isDeepStrictEqual } from 'node:util';
import { validate } from '../../src/schemas/registry.ts';
import type { HttpExchange } from '../shared/http.ts';
import { type ApiInputOperation, OPERATIONS, type OperationSpec } from './operations.ts';
import { API_INPUT_RULES, type CaseProblem, catalogueRule, problem } from './rules.ts';

/** Which rule the case breaks, and how; or undefined when the property holds. */
export function judgeCase(
  operation: ApiInputOperation,
  ex: HttpExchange,
  sent: unknown,
  before: unknown,
  after: unknown,
): CaseProblem | undefined {
  const found = judgeAnswer(ex, OPERATIONS[operation]);
  if (found === undefined) return sideEffectProblem(operation, sent, ex, before, after);
  const accepted = ex.status !== undefined && ex.status >= 200 && ex.status < 300;
  if (accepted || isDeepStrictEqual(before, after)) return found;
  const changed = operation === 'createTicket' ? 'ticket count changed' : 'ticket changed';
  return { ...found, reason: `${found.reason}; and the ${changed} anyway` };
}

function issuesText(schema: string, value: unknown): string | undefined {
  const issues = validate(schema, value);
  if (issues.length === 0) return undefined;
  return issues
    .slice(0, 3)
    .map((i) => `${i.pointer || '/'} ${i.message}`)
    .join('; ');
}

/** Which rule the answer breaks (the response half of the property), and how; or undefined. */
function judgeAnswer(ex: HttpExchange, spec: OperationSpec): CaseProblem | undefined {
  if (ex.status === undefined)
    return problem(API_INPUT_RULES.answered, `no answer (${ex.error ?? 'connection lost'})`);
  if (ex.status >= 500)
    return problem(
      catalogueRule('exchange.no-5xx'),
      `${ex.status}: a server error for a client's body`,
    );
  const status = catalogueRule('exchange.documented-status');
  if (ex.status >= 200 && ex.status < 300) {
    if (!spec.successStatuses.includes(ex.status))
      return problem(
        status,
        `${ex.status}; a success here is ${spec.successStatuses.join(' or ')}`,
      );
    const bad = issuesText(spec.success, ex.json);
    return bad
      ? problem(
          catalogueRule('exchange.response-schema'),
          `${ex.status} with a body that is not a valid ${spec.success}: ${bad}`,
        )
      : undefined;
  }
  if (ex.status >= 400) {
    const problemBody = catalogueRule('validation.problem-body');
    if (ex.json === undefined)
      return problem(problemBody, `${ex.status} with a body that is not JSON`);
    const bad = issuesText('Problem', ex.json);
    if (bad)
      return problem(problemBody, `${ex.status} with a body that is not a valid Problem: ${bad}`);
    const said = (ex.json as { status?: unknown }).status;
    return said === ex.status
      ? undefined
      : problem(
          problemBody,
          `${ex.status} with a problem body whose status is ${JSON.stringify(said)}`,
        );
  }
  return problem(status, `${ex.status}: neither a success nor a client error`);
}

/** The "nothing half done" half of the property, for an answer that passed the first half. */
function sideEffectProblem(
  operation: ApiInputOperation,
  sentBody: unknown,
  ex: HttpExchange,
  before: unknown,
  after: unknown,
): CaseProblem | undefined {
  const accepted = ex.status !== undefined && ex.status < 300;
  const halfDone = API_INPUT_RULES.nothingHalfDone;
  const mergePatch = catalogueRule('tickets.merge-patch');
  if (operation === 'createTicket') {
    if (typeof before !== 'number' || typeof after !== 'number') return undefined;
    if (!accepted && after !== before)
      return problem(
        halfDone,
        `rejected with ${ex.status}, yet the ticket count went from ${before} to ${after} (a half-created ticket)`,
      );
    if (accepted && after !== before + 1)
      return problem(
        API_INPUT_RULES.createdOnce,
        `accepted, yet the ticket count went from ${before} to ${after} (expected ${before + 1})`,
      );
    return undefined;
  }
  if (!accepted) {
    return isDeepStrictEqual(before, after)
      ? undefined
      : problem(
          halfDone,
          `rejected with ${ex.status}, yet the ticket changed (GET before and after differ)`,
        );
  }
  const sent = (sentBody ?? {}) as Record<string, unknown>;
  if (operation === 'updateTicket') {
    const now = after as Record<string, unknown> | undefined;
    for (const k of ['subject', 'priority', 'status'] as const) {
      if (k in sent && now?.[k] !== sent[k])
        return problem(
          mergePatch,
          `accepted, but ${k} reads ${JSON.stringify(now?.[k])} instead of the patched ${JSON.stringify(sent[k])}`,
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
  const m = ex.json as { body?: unknown; author?: unknown };
  if (m.body !== sent.body || m.author !== sent.author)
    return problem(
      catalogueRule('tickets.message-stored'),
      'accepted, but the message echoed is not the one sent (body or author differ)',
    );
  return undefined;
}
