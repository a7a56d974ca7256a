/**
 * One bounded request before the suite, so a dead, slow, TLS-broken or garbage-answering target
 * is named plainly in the report instead of surfacing as sixty identical test failures.
 */
import { request } from 'undici';

export type PreflightState =
  | 'ok'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'dns'
  | 'not-json'
  | 'server-error'
  | 'error';

export interface Preflight {
  state: PreflightState;
  detail: string;
  status?: number;
  ms: number;
}

export async function preflight(
  baseUrl: string,
  key: string | undefined,
  timeoutMs = 5000,
): Promise<Preflight> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  try {
    const res = await request(`${baseUrl}/v1/tickets?limit=1`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    const ct = String(res.headers['content-type'] ?? '');
    if (res.statusCode >= 500)
      return {
        state: 'server-error',
        status: res.statusCode,
        detail: `HTTP ${res.statusCode}`,
        ms: ms(),
      };
    let json = false;
    try {
      JSON.parse(text);
      json = true;
    } catch {
      json = false;
    }
    if (!json || !/json/.test(ct)) {
      return {
        state: 'not-json',
        status: res.statusCode,
        detail: `HTTP ${res.statusCode}, Content-Type ${ct || '(none)'}, body is not JSON`,
        ms: ms(),
      };
    }
    return { state: 'ok', status: res.statusCode, detail: `HTTP ${res.statusCode}`, ms: ms() };
  } catch (e) {
    const err = e as {
      code?: string;
      name?: string;
      message?: string;
      cause?: { code?: string; message?: string };
    };
    const code = err.code ?? err.cause?.code ?? '';
    const msg = `${err.message ?? ''} ${err.cause?.message ?? ''}`;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET')
      return { state: 'refused', detail: `connection refused (${code})`, ms: ms() };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return { state: 'dns', detail: `host not found (${code})`, ms: ms() };
    if (/timeout|aborted/i.test(`${code} ${err.name} ${msg}`))
      return { state: 'timeout', detail: `no answer within ${timeoutMs} ms`, ms: ms() };
    if (/CERT|SSL|TLS|self.signed|EPROTO/i.test(`${code} ${msg}`))
      return { state: 'tls', detail: `TLS failure (${code || msg.trim().slice(0, 80)})`, ms: ms() };
    return { state: 'error', detail: `${code} ${msg}`.trim().slice(0, 200), ms: ms() };
  }
}
