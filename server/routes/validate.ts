/**
 * Request validation from the spec's own schemas (core/schemas): 422 with field errors. The one
 * home of the validation answer, used by every route file (none imports another for it).
 */
import type { FastifyReply } from 'fastify';
import { validate } from '../../core/schemas/registry.ts';
import type { ServiceContext } from '../context.ts';
import { sendProblem } from '../problem.ts';

export function validBody(
  ctx: ServiceContext,
  reply: FastifyReply,
  schema: string,
  body: unknown,
): boolean {
  const issues = validate(schema, body ?? null);
  if (issues.length === 0) return true;
  validationFailed(
    ctx,
    reply,
    issues.map((i) => ({ field: i.field, code: i.keyword, message: i.message })),
  );
  return false;
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
