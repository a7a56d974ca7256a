/**
 * What of an exchange goes into the raw exchange log and the Playwright attachment: bounded
 * bodies, and everything redacted — response bodies and headers can carry secrets too (a key
 * issued by a rotation, a signing secret echoed by a misbehaving deployment).
 */
import type { Exchange } from '../checks/types.ts';
import { redactValue } from '../redact.ts';

export function loggableExchange(ex: Exchange) {
  return redactValue({
    method: ex.request.method,
    url: ex.request.url,
    operation: ex.operation ? `${ex.operation.method} ${ex.operation.template}` : undefined,
    requestBody: ex.request.body?.slice(0, 300),
    status: ex.response?.status,
    headers: ex.response?.headers,
    json: ex.response?.json,
    bodyPrefix:
      ex.response && ex.response.json === undefined
        ? ex.response.bodyText.slice(0, 200)
        : undefined,
    error: ex.error,
    durationMs: Math.round(ex.durationMs * 10) / 10,
  });
}
