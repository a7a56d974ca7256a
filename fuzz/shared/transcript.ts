/**
 * The one transcript writer of the fuzzers: `> ` request lines, `< ` response lines, `# ` notes,
 * bodies as text or hex, and every registered secret (plus `extraSecrets`) and signature-shaped
 * value redacted. API exchanges, captured deliveries and raw receiver exchanges all go through it.
 */
import { redact, safeCut } from '../../core/redact.ts';
import { shownText } from '../../core/shown.ts';
import { formOfHeader, signatureValue } from '../../core/signature/index.ts';
import type { CapturedDelivery } from '../../core/webhooks/capture-receiver.ts';
import type { Exchange } from '../../core/http/exchange.ts';
import { maskSignedMaterial } from './mask-signed.ts';
import { sentHeaders, type WireOutcome, type WireRequest } from './wire.ts';

const MAX_BODY_CHARS = 1500;
const MAX_HEX_BYTES = 256;
/** Bytes decoded to show MAX_BODY_CHARS characters: a body of any size costs only these. */
const DECODED_BYTES = MAX_BODY_CHARS * 4 + 4;

/**
 * The shown part of the body as text when it is clean UTF-8 (decided on the bytes shown: a
 * 10 MiB answer is not decoded whole to show 1500 characters of it), else undefined.
 */
function printableUtf8(body: Uint8Array): string | undefined {
  const head = body.subarray(0, DECODED_BYTES);
  try {
    // `stream`: a character cut at the end of the shown bytes is not an error.
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(head, {
      stream: head.length < body.length,
    });
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The first MAX_BODY_CHARS characters of `text`, never through a secret, and the bytes cut. */
function cutText(text: string, total: number, extra: readonly string[]) {
  if (text.length <= MAX_BODY_CHARS && text.length === total) return { shown: text, cut: false };
  const shown = text.slice(0, safeCut(text, MAX_BODY_CHARS, extra));
  return { shown, cut: Buffer.byteLength(shown, 'utf8') < total };
}

/**
 * The body as text when it is clean UTF-8, else as hex; long bodies are cut with their size
 * noted (`… (N bytes, first M shown)`), never through a registered secret or one of `extra`.
 */
export function renderBody(body: Uint8Array, extra: readonly string[] = []): string[] {
  if (body.length === 0) return [];
  const text = printableUtf8(body);
  const size = (shown: string) =>
    `… (${body.length} bytes, first ${Buffer.byteLength(shown, 'utf8')} shown)`;
  // CRs and edge whitespace would be invisible as plain lines; a JSON string shows every byte.
  if (text !== undefined && (text.includes('\r') || /^\s|\s$/.test(text))) {
    const { shown, cut } = cutText(text, body.length, extra);
    return [
      `[${body.length} bytes of text, shown as a JSON string]`,
      JSON.stringify(cut ? `${shown}…` : shown),
    ];
  }
  if (text !== undefined) {
    const { shown, cut } = cutText(text, body.length, extra);
    return (cut ? `${shown}${size(shown)}` : shown).split('\n');
  }
  const hex = Buffer.from(body.subarray(0, MAX_HEX_BYTES))
    .toString('hex')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  const more = body.length > MAX_HEX_BYTES ? `\n… (${body.length} bytes)` : '';
  return [`[${body.length} bytes, not clean UTF-8, shown as hex]`, ...`${hex}${more}`.split('\n')];
}

/** One message: its start line, header lines, a blank `>`/`<` line and the body. */
function message(
  dir: '>' | '<',
  start: string,
  headers: Iterable<readonly [string, string]>,
  body: Uint8Array,
  extra: readonly string[] = [],
): string[] {
  const lines = [`${dir} ${start}`];
  for (const [n, v] of headers) lines.push(`${dir} ${n}: ${shownText(v, MAX_BODY_CHARS, extra)}`);
  lines.push(dir);
  for (const l of renderBody(body, extra)) lines.push(`${dir} ${l}`);
  return lines;
}

const notes = (n: readonly string[]) => n.map((x) => `# ${x}`);

/** Headers of a response that matter to a reader; the rest is noise in a counterexample. */
const SHOWN_RESPONSE_HEADERS = ['content-type', 'content-length', 'location', 'retry-after'];

function bodyBytes(body: string | Buffer | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** `> ` request lines, `< ` response lines, `# ` notes. */
export function renderExchange(
  ex: Exchange,
  noteLines: readonly string[] = [],
  extraSecrets: readonly string[] = [],
): string {
  const req = ex.request;
  const url = new URL(req.url);
  const lines = [
    ...notes(noteLines),
    ...message(
      '>',
      `${req.method} ${url.pathname}${url.search} HTTP/1.1`,
      Object.entries(req.headers),
      bodyBytes(req.body),
      extraSecrets,
    ),
  ];
  const res = ex.response;
  if (res === undefined) {
    lines.push(`< (no response: ${ex.error ?? 'unknown error'})`);
  } else {
    if (ex.rateLimitedRetries) lines.push(`# answered after ${ex.rateLimitedRetries} 429(s)`);
    const shown = SHOWN_RESPONSE_HEADERS.flatMap((n) => {
      const v = res.headers[n];
      return v === undefined ? [] : [[n, v] as const];
    });
    lines.push(
      ...message(
        '<',
        `HTTP/1.1 ${res.status}`,
        shown,
        Buffer.from(res.bodyText, 'utf8'),
        extraSecrets,
      ),
    );
  }
  return redact(lines.join('\n'), extraSecrets);
}

/** A captured webhook delivery as the receiver got it. */
export function renderDelivery(
  d: CapturedDelivery,
  noteLines: readonly string[] = [],
  extraSecrets: readonly string[] = [],
): string {
  const lines = [
    ...notes(noteLines),
    ...message(
      '>',
      `${d.method} ${d.path} HTTP/1.1`,
      Object.entries(d.headers),
      d.raw,
      extraSecrets,
    ),
    `< HTTP/1.1 ${d.answered}`,
  ];
  return redact(lines.join('\n'), extraSecrets);
}

/** The secret a request was signed with, and the name a reader knows it by (`$HOOK_SECRET`). */
export interface Signing {
  secret: string;
  label: string;
}

/**
 * The header lines with every signature value replaced by what it is: a value computed with the
 * secret — valid, spoiled (a flipped bit, a truncation, another prefix, SHA-1 …) or under another
 * header name — would hand its reader a valid signature or most of one, so no value of a header
 * named like a signature is ever shown; the case's notes say what was sent.
 */
export function maskSignatures(
  headers: ReadonlyArray<readonly [string, string]>,
  body: Uint8Array,
  signing: Signing,
): Array<[string, string]> {
  return headers.map(([n, v]): [string, string] => {
    if (!/signature/i.test(n)) return [n, v];
    const form = formOfHeader(n);
    const valid = form && v === signatureValue(form, signing.secret, body);
    if (valid)
      return [
        n,
        `${form === 'prefixed' ? 'sha256=' : ''}<valid HMAC-SHA256 of the body, signed with ${signing.label}>`,
      ];
    return [
      n,
      '<not shown: a value derived from the signature or sent in its place, see the notes>',
    ];
  });
}

/**
 * `> ` lines for the request, `< ` lines for the response, `# ` lines for what the case means.
 * Every registered secret and `extraSecrets` are masked, and so are signature-shaped values;
 * with `signing`, every signature header's value is replaced by what it is (maskSignatures).
 */
export function renderTranscript(
  url: URL,
  req: WireRequest,
  outcome: WireOutcome,
  header: string[],
  extraSecrets: readonly string[] = [],
  signing?: Signing,
): string {
  const lines = [...notes(header), ...notes(req.notes)];
  if (req.framing.kind === 'chunked')
    lines.push(`# body sent in chunks of ${req.framing.chunkSizes.join(', ')} bytes`);
  lines.push(
    ...message(
      '>',
      `${req.method} ${url.pathname}${url.search} HTTP/1.1`,
      signing ? maskSignatures(sentHeaders(url, req), req.body, signing) : sentHeaders(url, req),
      req.body,
      extraSecrets,
    ),
  );
  if ('error' in outcome) {
    lines.push(`< (no response: ${outcome.error})`);
  } else {
    const res = outcome.response;
    lines.push(
      ...message(
        '<',
        `HTTP/1.1 ${res.status} ${res.statusText}`,
        res.headers,
        res.body,
        extraSecrets,
      ),
    );
  }
  const text = redact(lines.join('\n'), extraSecrets);
  // A receiver may echo the signature it expected: no digest of the body under the secret stays.
  return signing
    ? maskSignedMaterial(text, signing.secret, [req.body], `<HMAC signed with ${signing.label}>`)
    : text;
}
