/**
 * Why a receiver refused a validly signed body, from evidence rather than from the body's class.
 * For each known rewrite a receiver may apply before hashing (JSON re-serialisation, line endings,
 * trimming, a stripped BOM, a C string, UTF-8 decoding, Unicode normalisation, skipping the body
 * altogether), the refused request is sent again signed over the rewritten bytes. A rewrite whose
 * re-signed request authenticates is a candidate; it is named as the cause only when its witness
 * confirms it: a body made so that no other rewrite turns it into the same bytes, refused when
 * signed over its raw bytes and accepted when signed over the rewrite's. Candidates the witnesses
 * do not separate are named together, as what this body cannot tell apart.
 */
import { formOfHeader, signatureValue } from '../../core/signature/index.ts';
import type { WireOutcome, WireRequest } from '../shared/wire.ts';

export interface BodyRewrite {
  /** What the receiver does, as a report names it. */
  does: string;
  /** The rewritten bytes, or undefined when the rewrite does not apply (not JSON, say). */
  apply(body: Uint8Array): Uint8Array | undefined;
  /** A body this rewrite changes into bytes no other rewrite makes of it. */
  witness: Uint8Array;
}

const latin1 = (b: Uint8Array, f: (t: string) => string) =>
  Buffer.from(f(Buffer.from(b).toString('latin1')), 'latin1');
const utf8Text = (b: Uint8Array, f: (t: string) => string) =>
  Buffer.from(f(Buffer.from(b).toString('utf8')), 'utf8');
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))),
  );

function json(b: Uint8Array, f: (v: unknown) => string): Uint8Array | undefined {
  try {
    return Buffer.from(f(JSON.parse(Buffer.from(b).toString('utf8'))), 'utf8');
  } catch {
    return undefined;
  }
}

/** `v` with every object's keys in sorted order, recursively (a re-serialising receiver's way). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

const asciiOnly = (t: string) =>
  t.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** JSON whose every re-serialisation differs: spaces, unsorted keys, a non-ASCII character. */
const JSON_WITNESS = bytes('{"b": "\u00e9", "a": 2}');
/** Valid UTF-8 with one character in NFC and one in NFD, as canonical JSON. */
const NORMAL_FORMS_WITNESS = bytes('{"t":"\u00e9 e\u0301"}');

export const BODY_REWRITES: readonly BodyRewrite[] = [
  {
    does: 're-serialising the JSON (JSON.parse, then JSON.stringify: e.g. express.json() and JSON.stringify(req.body))',
    apply: (b) => json(b, (v) => JSON.stringify(v)),
    witness: JSON_WITNESS,
  },
  {
    does: 're-serialising the JSON with sorted keys',
    apply: (b) => json(b, (v) => JSON.stringify(sortKeys(v))),
    witness: JSON_WITNESS,
  },
  {
    does: 're-serialising the JSON ASCII-only (\\u escapes)',
    apply: (b) => json(b, (v) => asciiOnly(JSON.stringify(v))),
    witness: JSON_WITNESS,
  },
  {
    does: 're-serialising the JSON indented by two spaces',
    apply: (b) => json(b, (v) => JSON.stringify(v, null, 2)),
    witness: JSON_WITNESS,
  },
  {
    does: 'normalising CRLF line endings to LF',
    apply: (b) => latin1(b, (t) => t.replace(/\r\n/g, '\n')),
    witness: bytes('{"a":1,\r\n"b":2,\r"c":3}'),
  },
  {
    does: 'normalising every line ending (CRLF and lone CR) to LF',
    apply: (b) => latin1(b, (t) => t.replace(/\r\n?/g, '\n')),
    witness: bytes('{"a":1,\r\n"b":2,\r"c":3}'),
  },
  {
    does: 'trimming leading and trailing whitespace',
    apply: (b) => latin1(b, (t) => t.trim()),
    witness: bytes(' {"a": 1}\n'),
  },
  {
    does: 'stripping a UTF-8 byte-order mark',
    apply: (b) => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b),
    witness: bytes([0xef, 0xbb, 0xbf], '{"a": 1}'),
  },
  {
    does: 'cutting the body at its first NUL byte (a C string)',
    apply: (b) => (b.includes(0) ? b.subarray(0, b.indexOf(0)) : b),
    witness: bytes('{"a": 1}', [0], '{"b": 2}'),
  },
  {
    does: 'decoding the body as UTF-8 text and encoding it again (invalid bytes become U+FFFD)',
    apply: (b) => Buffer.from(Buffer.from(b).toString('utf8'), 'utf8'),
    witness: bytes('{"t": "\u00e9 e\u0301 ', [0xff], '"}'),
  },
  {
    does: 'normalising the text to Unicode NFC',
    apply: (b) => utf8Text(b, (t) => t.normalize('NFC')),
    witness: NORMAL_FORMS_WITNESS,
  },
  {
    does: 'normalising the text to Unicode NFD',
    apply: (b) => utf8Text(b, (t) => t.normalize('NFD')),
    witness: NORMAL_FORMS_WITNESS,
  },
  {
    does: 'dropping the body (a body parser that skips this Content-Type leaves nothing to hash)',
    apply: () => new Uint8Array(0),
    witness: bytes('{"a": 1}'),
  },
];

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Distinct rewritten bodies of `body`, each with every rewrite that produces it. */
export function rewriteCandidates(body: Uint8Array): Array<{ bytes: Uint8Array; does: string[] }> {
  const out: Array<{ bytes: Uint8Array; does: string[] }> = [];
  for (const r of BODY_REWRITES) {
    const rewritten = r.apply(body);
    if (!rewritten || same(rewritten, body)) continue;
    const twin = out.find((c) => same(c.bytes, rewritten));
    if (twin) twin.does.push(r.does);
    else out.push({ bytes: rewritten, does: [r.does] });
  }
  return out;
}

/** `req` with `body`, each documented signature header signed over `signedBytes`. */
export function resigned(
  req: WireRequest,
  secret: string,
  body: Uint8Array,
  signedBytes: Uint8Array,
): WireRequest {
  return {
    ...req,
    body,
    headers: req.headers.map(([n, v]): [string, string] => {
      const form = formOfHeader(n);
      return form ? [n, signatureValue(form, secret, signedBytes)] : [n, v];
    }),
    notes: [...req.notes, 'diagnosis: signed over other bytes than the body sent'],
  };
}

const refused = (o: WireOutcome) =>
  'response' in o && (o.response.status === 401 || o.response.status === 403);
const accepted = (o: WireOutcome) => 'response' in o && o.response.status < 500 && !refused(o);

type Send = (r: WireRequest) => Promise<WireOutcome>;

/**
 * Whether `r`'s witness confirms it: refused when validly signed over its raw bytes, accepted
 * when signed over `r`'s rewrite of them.
 */
async function confirmed(req: WireRequest, secret: string, r: BodyRewrite, send: Send) {
  const w = r.witness;
  const rewritten = r.apply(w);
  if (!rewritten) return false;
  if (!refused(await send(resigned(req, secret, w, w)))) return false;
  return accepted(await send(resigned(req, secret, w, rewritten)));
}

/**
 * The cause of a refused valid signature, proven by re-signed requests (see the file comment),
 * or a sentence saying no known rewrite explains it. Undefined when the refusal was not a 401 or
 * 403 (nothing to explain).
 */
export async function diagnoseRefusal(
  req: WireRequest,
  outcome: WireOutcome,
  secret: string,
  send: Send,
): Promise<string | undefined> {
  if (!refused(outcome)) return undefined;
  if (!req.headers.some(([n]) => formOfHeader(n))) return undefined;
  const candidates = rewriteCandidates(req.body);
  const named: string[] = [];
  for (const c of candidates) {
    if (!accepted(await send(resigned(req, secret, req.body, c.bytes)))) continue;
    const proven: string[] = [];
    for (const does of c.does) {
      const r = BODY_REWRITES.find((x) => x.does === does)!;
      if (await confirmed(req, secret, r, send)) proven.push(does);
    }
    if (proven.length > 0) named.push(...proven);
    else if (c.does.length > 1)
      named.push(`one of: ${c.does.join('; ')} (this body cannot tell them apart)`);
  }
  if (candidates.length === 0) return undefined;
  if (named.length === 0)
    return `no known rewrite of the body explains the refusal (${candidates.length} re-signed variants tried)`;
  return `cause, shown by re-signed requests: the receiver computes the HMAC after ${named.join(', or after ')} — not over the raw bytes it received`;
}
