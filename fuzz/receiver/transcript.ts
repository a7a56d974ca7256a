/** HTTP transcripts of counterexamples, readable and with secrets redacted. */
import { redact } from '../../src/redact.ts';
import { sentHeaders, type WireOutcome, type WireRequest } from './wire.ts';

const MAX_BODY_CHARS = 1500;
const MAX_HEX_BYTES = 256;

function isPrintableUtf8(body: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The body as text when it is clean UTF-8, else as hex; long bodies are cut with their size noted. */
export function renderBody(body: Uint8Array): string[] {
  if (body.length === 0) return [];
  const text = isPrintableUtf8(body);
  // CRs and edge whitespace would be invisible as plain lines; a JSON string shows every byte.
  if (text !== undefined && (text.includes('\r') || /^\s|\s$/.test(text))) {
    const shown = text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…` : text;
    return [`[${body.length} bytes of text, shown as a JSON string]`, JSON.stringify(shown)];
  }
  if (text !== undefined) {
    const cut =
      text.length > MAX_BODY_CHARS
        ? `${text.slice(0, MAX_BODY_CHARS)}… (${body.length} bytes)`
        : text;
    return cut.split('\n');
  }
  const hex = Buffer.from(body.subarray(0, MAX_HEX_BYTES))
    .toString('hex')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  const more = body.length > MAX_HEX_BYTES ? `\n… (${body.length} bytes)` : '';
  return [`[${body.length} bytes, not clean UTF-8, shown as hex]`, ...`${hex}${more}`.split('\n')];
}

/**
 * `> ` lines for the request, `< ` lines for the response, `# ` lines for what the case means.
 * Every registered secret and `extraSecrets` are masked, and so are signature-shaped values.
 */
export function renderTranscript(
  url: URL,
  req: WireRequest,
  outcome: WireOutcome,
  header: string[],
  extraSecrets: readonly string[] = [],
): string {
  const lines = [...header.map((h) => `# ${h}`), ...req.notes.map((n) => `# ${n}`)];
  if (req.framing.kind === 'chunked')
    lines.push(`# body sent in chunks of ${req.framing.chunkSizes.join(', ')} bytes`);
  lines.push(`> ${req.method} ${url.pathname}${url.search} HTTP/1.1`);
  for (const [n, v] of sentHeaders(url, req)) lines.push(`> ${n}: ${v}`);
  lines.push('>');
  for (const l of renderBody(req.body)) lines.push(`> ${l}`);
  if ('error' in outcome) {
    lines.push(`< (no response: ${outcome.error})`);
  } else {
    const res = outcome.response;
    lines.push(`< HTTP/1.1 ${res.status} ${res.statusText}`);
    for (const [n, v] of res.headers) lines.push(`< ${n}: ${v}`);
    lines.push('<');
    for (const l of renderBody(res.body)) lines.push(`< ${l}`);
  }
  return redact(lines.join('\n'), extraSecrets);
}
