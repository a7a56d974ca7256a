/** RFC 9457 problem details, the assumed error body of every 4xx (docs/assumptions.md U16). */
import type { FastifyReply } from 'fastify';
import './context.ts';

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** The RFC 9457 body; `sendProblem` and the answers written before routing share it. */
export function problemBody(
  status: number,
  code: string,
  detail: string,
  requestId: string,
  errors?: FieldError[],
): Record<string, unknown> {
  return {
    type: `https://support-ticketing.example/problems/${code.replace(/_/g, '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
): FastifyReply {
  const body = problemBody(status, code, detail, String(reply.request.id), errors);
  if (reply.server.svc?.faults.has('problem-status-400')) body.status = 400;
  // FAULT errors-plain-text: the media type only — the problem JSON itself is unchanged, so the
  // checks of the body (exchange.json-body, validation.problem-body) see a right one.
  const type = reply.server.svc?.faults.has('errors-plain-text')
    ? 'text/plain; charset=utf-8'
    : 'application/problem+json';
  return reply.code(status).type(type).send(JSON.stringify(body));
}
