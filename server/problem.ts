/**
 * RFC 9457 problem details, the assumed error body of every 4xx (docs/assumptions.md U16), and the
 * other error bodies a reading of U16 writes instead.
 */
import type { FastifyReply } from 'fastify';
import './context.ts';
import type { Behaviour } from './readings/index.ts';

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

/** How an error is written: its media type and its body. */
export interface ErrorAnswer {
  type: string;
  body: string;
}

/**
 * An error as the deployment writes it (U16): our RFC 9457 problem, or a reading's other shape —
 * a JSON error object, or plain text. `member` is the problem's status member (the HTTP status).
 */
export function errorAnswer(
  shape: Behaviour['errorBody'],
  status: number,
  code: string,
  detail: string,
  requestId: string,
  errors?: FieldError[],
  member = status,
): ErrorAnswer {
  const fields = errors && errors.length > 0 ? errors : undefined;
  if (shape === 'error-object') {
    const details = fields?.map(({ field, message }) => ({ field, message }));
    return {
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({
        error: { code, message: detail, request_id: requestId, ...(details ? { details } : {}) },
      }),
    };
  }
  if (shape === 'plain-text') {
    const lines = [`${status} ${TITLES[status] ?? 'Error'}: ${detail}`];
    for (const e of fields ?? []) lines.push(`${e.field}: ${e.message}`);
    return { type: 'text/plain; charset=utf-8', body: `${lines.join('\n')}\n` };
  }
  return {
    type: 'application/problem+json; charset=utf-8',
    body: JSON.stringify({
      ...problemBody(status, code, detail, requestId, fields),
      status: member,
    }),
  };
}

export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
): FastifyReply {
  const svc = reply.server.svc;
  const a = errorAnswer(
    svc?.behaviour.errorBody ?? 'problem',
    status,
    code,
    detail,
    String(reply.request.id),
    errors,
    svc?.faults.has('problem-status-400') ? 400 : status,
  );
  return reply.code(status).type(a.type).send(a.body);
}
