/**
 * Request validation from the spec's own schemas (core/schemas): 422 with field errors. The one
 * home of the validation answer, used by every route file (none imports another for it).
 */
import type { FastifyReply } from 'fastify';
import { type ValidationIssue, validate } from '../../core/schemas/registry.ts';
import type { ServiceContext } from '../context.ts';
import { sendProblem } from '../problem.ts';

/** Our assumed size limits (U26): the schema keywords a deployment without them does not enforce. */
const SIZE_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/**
 * The body's issues against `schema`. Without our size limits (U26) those keywords are dropped —
 * but an email address keeps its length: at most 254 characters is part of being one (RFC 5321),
 * and the docs give the requester an `<EMAIL>`. With them, a subject may run to this
 * deployment's own longest (U26) where that is over the spec's 255.
 */
function issuesOf(ctx: ServiceContext, schema: string, body: unknown): ValidationIssue[] {
  const issues = validate(schema, body ?? null);
  if (!ctx.behaviour.sizeLimits)
    return issues.filter((i) => !SIZE_KEYWORDS.has(i.keyword) || /\/email$/.test(i.pointer));
  const subject = (body as { subject?: unknown } | null)?.subject;
  const fits = typeof subject !== 'string' || [...subject].length <= ctx.behaviour.subjectMaxLength;
  return issues.filter((i) => !(fits && i.keyword === 'maxLength' && i.pointer === '/subject'));
}

export function validBody(
  ctx: ServiceContext,
  reply: FastifyReply,
  schema: string,
  body: unknown,
  /** Values of `status` this deployment takes beside the spec's enum (U1). */
  statuses: readonly string[] = [],
): boolean {
  const status = (body as { status?: unknown } | null)?.status;
  const issues = issuesOf(ctx, schema, body).filter(
    (i) =>
      !(
        i.pointer === '/status' &&
        i.keyword === 'enum' &&
        typeof status === 'string' &&
        statuses.includes(status)
      ),
  );
  if (issues.length === 0) return true;
  validationFailed(
    ctx,
    reply,
    issues.map((i) => ({ field: i.field, code: i.keyword, message: i.message })),
  );
  return false;
}

/**
 * An update body to apply, or undefined once a 422 was sent. Fields of the wrong type are
 * rejected, or ignored (U6=ignore-wrong-types: the rest is validated and applied).
 */
export function validUpdate<T>(
  ctx: ServiceContext,
  reply: FastifyReply,
  schema: string,
  body: unknown,
  statuses: readonly string[] = [],
): T | undefined {
  const applied =
    ctx.behaviour.wrongTypedUpdate === 'ignore'
      ? withoutWrongTyped(body, validate(schema, body ?? null))
      : body;
  return validBody(ctx, reply, schema, applied, statuses) ? (applied as T) : undefined;
}

/** The validation problem: 422 (or a reading's 400) with errors[{field, code, message}] (U16, U20). */
export function validationFailed(
  ctx: ServiceContext,
  reply: FastifyReply,
  errors: Array<{ field: string; code: string; message: string }>,
): FastifyReply {
  return sendProblem(
    reply,
    ctx.behaviour.validationStatus,
    'validation_failed',
    'The request does not satisfy the schema.',
    ctx.faults.has('validation-errors-missing') ? [] : errors,
  );
}

/**
 * An update body without its wrong-typed fields: a field is wrong-typed when a `type` issue points
 * at it or inside it (`/tags/3`). A body that is not an object is left as it is (422).
 */
function withoutWrongTyped(body: unknown, issues: readonly ValidationIssue[]): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const ignored = new Set(
    issues
      .filter((i) => i.keyword === 'type' && i.pointer.split('/')[1])
      // RFC 6901: `~1` is `/`, `~0` is `~`.
      .map((i) => i.pointer.split('/')[1]!.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
  return Object.fromEntries(Object.entries(body).filter(([k]) => !ignored.has(k)));
}
