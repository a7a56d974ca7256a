/**
 * A fuzzer's exchange as the checks' Exchange (core/checks/types.ts), so the registered checks
 * judge what a fuzzer sent exactly as they judge the contract suite's requests.
 */
import type { Exchange } from '../../core/checks/types.ts';
import type { OperationSpec } from '../../core/spec/operations.ts';
import type { HttpExchange } from './http.ts';

export function checkExchange(
  ex: HttpExchange,
  baseUrl: string,
  durationMs: number,
  operation?: OperationSpec,
): Exchange {
  const req = ex.request;
  const body = typeof req.body === 'string' ? req.body : req.body?.toString('utf8');
  return {
    request: {
      method: req.method,
      url: `${baseUrl.replace(/\/+$/, '')}${req.path}`,
      headers: req.headers ?? {},
      ...(body === undefined ? {} : { body }),
    },
    ...(ex.status === undefined
      ? { error: ex.error ?? 'no response' }
      : {
          response: {
            status: ex.status,
            headers: ex.headers,
            bodyText: ex.text,
            ...(ex.json === undefined ? {} : { json: ex.json }),
          },
        }),
    durationMs,
    ...(operation ? { operation } : {}),
  };
}
