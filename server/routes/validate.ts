/** Request-body validation from the spec's own schemas (src/schemas): 422 with field errors. */
import type { FastifyReply } from 'fastify';
import { validate } from '../../src/schemas/registry.ts';
import type { ServiceContext } from '../context.ts';
import { validationFailed } from './tickets.ts';

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
