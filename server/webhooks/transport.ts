import { type Dispatcher, request } from 'undici';

export interface PostResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/** Response bodies are read only to free the connection; more than this is not worth reading. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST of `body`. Never throws: a missing response becomes `error`. The timeout covers the
 * whole exchange, body included, because a receiver that answers 200 but never finishes has not
 * acknowledged in time either.
 */
export async function postOnce(
  agent: Dispatcher,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<PostResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCancel = () => controller.abort();
  cancel.addEventListener('abort', onCancel, { once: true });
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal: controller.signal,
    });
    await res.body.dump({ limit: MAX_RESPONSE_BYTES });
    // dump() resolves quietly on abort, so the flag decides.
    if (timedOut) return { error: `timeout after ${timeoutMs} ms`, durationMs: elapsed(started) };
    return { status: res.statusCode, durationMs: elapsed(started) };
  } catch (err) {
    const error = timedOut
      ? `timeout after ${timeoutMs} ms`
      : cancel.aborted
        ? 'aborted: dispatcher closed'
        : describeError(err);
    return { error, durationMs: elapsed(started) };
  } finally {
    clearTimeout(timer);
    cancel.removeEventListener('abort', onCancel);
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici wraps socket errors; the cause carries the useful code (ECONNREFUSED, cert errors).
  const cause = (err as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : err;
  const code = (inner as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${inner.message}` : inner.message;
}
