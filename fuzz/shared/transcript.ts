/** Transcripts of API exchanges and captured deliveries, readable and with secrets redacted. */
import { redact } from '../../src/redact.ts';
import { renderBody } from '../receiver/transcript.ts';
import type { CapturedDelivery } from '../../src/webhooks/capture-receiver.ts';
import type { HttpExchange } from './http.ts';

/** Headers of a response that matter to a reader; the rest is noise in a counterexample. */
const SHOWN_RESPONSE_HEADERS = ['content-type', 'content-length', 'location', 'retry-after'];

function bodyBytes(body: string | Buffer | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** `> ` request lines, `< ` response lines, `# ` notes. */
export function renderExchange(
  ex: HttpExchange,
  notes: readonly string[] = [],
  extraSecrets: readonly string[] = [],
): string {
  const lines = notes.map((n) => `# ${n}`);
  const req = ex.request;
  lines.push(`> ${req.method} ${req.path} HTTP/1.1`);
  for (const [n, v] of Object.entries(req.headers ?? {})) lines.push(`> ${n}: ${v}`);
  lines.push('>');
  for (const l of renderBody(bodyBytes(req.body))) lines.push(`> ${l}`);
  if (ex.status === undefined) {
    lines.push(`< (no response: ${ex.error ?? 'unknown error'})`);
  } else {
    if (ex.rateLimitedRetries > 0) lines.push(`# answered after ${ex.rateLimitedRetries} 429(s)`);
    lines.push(`< HTTP/1.1 ${ex.status}`);
    for (const n of SHOWN_RESPONSE_HEADERS) {
      const v = ex.headers[n];
      if (v !== undefined) lines.push(`< ${n}: ${v}`);
    }
    lines.push('<');
    for (const l of renderBody(Buffer.from(ex.text, 'utf8'))) lines.push(`< ${l}`);
  }
  return redact(lines.join('\n'), extraSecrets);
}

/** A captured webhook delivery as the receiver got it. */
export function renderDelivery(
  d: CapturedDelivery,
  notes: readonly string[] = [],
  extraSecrets: readonly string[] = [],
): string {
  const lines = notes.map((n) => `# ${n}`);
  lines.push(`> ${d.method} ${d.path} HTTP/1.1`);
  for (const [n, v] of Object.entries(d.headers)) lines.push(`> ${n}: ${v}`);
  lines.push('>');
  for (const l of renderBody(d.raw)) lines.push(`> ${l}`);
  lines.push(`< HTTP/1.1 ${d.answered}`);
  return redact(lines.join('\n'), extraSecrets);
}
