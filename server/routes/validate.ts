/**
 * Request validation from the spec's own schemas (core/schemas): 422 with field errors. The one
 * home of the validation answer, used by every route file (none imports another for it).
 */
import type { FastifyReply } from 'fastify';
import { type ValidationIssue, validate } from '../../core/schemas/registry.ts';
import type { ServiceContext } from '../context.ts';
import { laxIssues, withoutWrongTyped } from '../lax.ts';
import { sendProblem } from '../problem.ts';

/** The body's issues against `schema`; the lax profile (server/lax.ts) drops our size limits. */
function issuesOf(ctx: ServiceContext, schema: string, body: unknown): ValidationIssue[] {
  const issues = validate(schema, body ?? null);
  return ctx.lax ? laxIssues(issues) : issues;
}

export function validBody(
  ctx: ServiceContext,
  reply: FastifyReply,
  schema: string,
  body: unknown,
): boolean {
  const issues = issuesOf(ctx, schema, body);
  if (issues.length === 0) return true;
  validationFailed(
    ctx,
    reply,
    issues.map((i) => ({ field: i.field, code: i.keyword, message: i.message })),
  );
  return false;
}

/**
 * An update body to apply, or undefined once a 422 was sent. The lax profile ignores the fields
 * of the wrong type (and validates the rest); the default profile rejects them.
 */
export function validUpdate<T>(
  ctx: ServiceContext,
  reply: FastifyReply,
  schema: string,
  body: unknown,
): T | undefined {
  const applied = ctx.lax ? withoutWrongTyped(body, validate(schema, body ?? null)).body : body;
  return validBody(ctx, reply, schema, applied) ? (applied as T) : undefined;
}

/** The validation problem: 422 with errors[{field, code, message}] (U16, U20). */
export function validationFailed(
  ctx: ServiceContext,
  reply: FastifyReply,
  errors: Array<{ field: string; code: string; message: string }>,
): FastifyReply {
  const status = ctx.faults.has('validation-400') ? 400 : 422;
  return sendProblem(
    reply,
    status,
    'validation_failed',
    'The request does not satisfy the schema.',
    ctx.faults.has('validation-errors-missing') ? [] : errors,
  );
}
