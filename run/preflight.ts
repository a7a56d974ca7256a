/**
 * One bounded request before the suite — the ticket list with the configured key, `limit=1` —
 * that decides whether the target can be tested at all, and shows whether its list reads `limit`. A dead, silent, TLS-broken, HTML-answering, failing,
 * key-refusing, misaddressed or redirecting target is named plainly (run/unusable-target.ts
 * says what to fix) instead of surfacing as seventy identical test failures.
 */
import { type RateHeaders, readRateHeaders } from '../core/http/rate-budget.ts';
import { listArray, listNext } from '../core/http/list-page.ts';
import { undiciTransport } from '../core/http/undici-transport.ts';

export type PreflightState =
  | 'ok'
  | 'refused'
  | 'closed'
  | 'timeout'
  | 'tls'
  | 'dns'
  | 'not-json'
  | 'server-error'
  | 'key-refused'
  | 'not-found'
  | 'redirect'
  | 'error';

export interface Preflight {
  state: PreflightState;
  detail: string;
  /** The URL requested. */
  url: string;
  status?: number;
  /** Where a redirect pointed. */
  location?: string;
  /** The transport error code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, …). */
  code?: string;
  ms: number;
  /** The key's rate-limit headers on the answer: what the run's budget starts from. */
  rate?: RateHeaders;
  /** A 2xx list answer: how many tickets it listed to `limit=1`, in how many bytes, and whether it named a next page. */
  listed?: { rows: number; bytes: number; paged: boolean };
}

/** The list call's URL under `baseUrl` (the harness adds /v1 itself). */
export const preflightUrl = (baseUrl: string) => `${baseUrl}/v1/tickets?limit=1`;

export async function preflight(
  baseUrl: string,
  key: string | undefined,
  timeoutMs = 5000,
): Promise<Preflight> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  const url = preflightUrl(baseUrl);
  // The one client's undici transport follows no redirect: a 3xx is seen as such.
  const a = await undiciTransport().send({
    method: 'GET',
    url: new URL(url),
    headers: [
      ['accept', 'application/json, application/problem+json'],
      ...(key ? ([['authorization', `Bearer ${key}`]] as Array<[string, string]>) : []),
    ],
    timeoutMs,
  });
  if ('error' in a) return { url, ms: ms(), ...transportFailure(a.thrown, timeoutMs) };
  const text = a.body.toString('utf8');
  const status = a.status;
  const ct = a.headers['content-type'] ?? '';
  const base = { url, status, ms: ms(), rate: readRateHeaders(a.headers) };
  if (status >= 500) return { ...base, state: 'server-error', detail: `HTTP ${status}` };
  if (status >= 300 && status < 400) {
    const location = a.headers.location ?? '';
    return {
      ...base,
      state: 'redirect',
      location,
      detail: `HTTP ${status} to ${location || '(no Location)'}`,
    };
  }
  if (status === 401 || status === 403)
    return { ...base, state: 'key-refused', detail: `HTTP ${status}` };
  if (status === 404) return { ...base, state: 'not-found', detail: 'HTTP 404' };
  // The key's rate limit answering (a busy shared key; the load area's drain just before): the
  // target answers, whatever the refusal's body (its shape is not shown, U16: plain text too).
  if (status === 429) return { ...base, state: 'ok', detail: 'HTTP 429' };
  // The body decides whether the suite can talk to the target; a JSON body under another label
  // (text/plain) is a finding of the suite's (exchange.json-body: all API traffic is JSON), not a
  // target it cannot test.
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      ...base,
      state: 'not-json',
      detail: `HTTP ${status}, Content-Type ${ct || '(none)'}, body is not JSON`,
    };
  }
  // Any other JSON answer (a 400 the suite will judge) is a target the contract suite can talk to.
  const rows = status >= 200 && status < 300 ? listArray(body) : undefined;
  const paged = listNext(body, a.headers.link, { limit: 1 }) !== undefined;
  return {
    ...base,
    state: 'ok',
    detail: `HTTP ${status}`,
    ...(rows ? { listed: { rows: rows.length, bytes: a.body.length, paged } } : {}),
  };
}

/** Names the transport error of a request that got no answer. */
function transportFailure(
  e: unknown,
  timeoutMs: number,
): Pick<Preflight, 'state' | 'detail' | 'code'> {
  const err = e as {
    code?: string;
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const code = err.code ?? err.cause?.code ?? '';
  const msg = `${err.message ?? ''} ${err.cause?.message ?? ''}`.trim();
  const withCode = (d: string) => ({
    detail: code ? `${d} (${code})` : d,
    code: code || undefined,
  });
  if (code === 'ECONNREFUSED') return { state: 'refused', ...withCode('connection refused') };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { state: 'dns', ...withCode('host not found') };
  if (/timeout|aborted/i.test(`${code} ${err.name} ${msg}`))
    return {
      state: 'timeout',
      detail: `no answer within ${timeoutMs} ms`,
      code: code || undefined,
    };
  if (/CERT|SSL|TLS|self.signed|EPROTO|ERR_SSL/i.test(`${code} ${msg}`)) {
    // OpenSSL's own text (`80…:error:0A00010B:SSL routines:ssl3_get_record:wrong version
    // number:../deps/…`): its reason is the part worth reading.
    const reason = /error:[0-9A-F]+:[^:]+:[^:]+:([^:]+)/.exec(msg)?.[1] ?? msg.slice(0, 120);
    return {
      state: 'tls',
      detail: `TLS failure: ${reason || code}${code ? ` (${code})` : ''}`,
      code: code || undefined,
    };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return { state: 'closed', ...withCode('the connection was closed without an answer') };
  return {
    state: 'error',
    detail: `${code} ${msg}`.trim().slice(0, 200),
    code: code || undefined,
  };
}
