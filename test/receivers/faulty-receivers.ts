/**
 * A zoo of webhook receivers, each with one mistake seen in real integrations, and the named
 * receiver-fuzz property that must catch it. Everything else about them is correct, so each
 * one isolates its fault.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { sortKeys } from '../../fuzz/receiver/diagnose.ts';

type Verdict = 'accept' | 'reject';

interface Hooks {
  /** Bytes the HMAC is computed over. Default: the raw body. */
  hmacInput?: (raw: Buffer) => Buffer;
  /** Compares the received value with the canonical one. Default: strict, constant-time. */
  matches?: (given: string, canonical: string) => boolean;
  /** Normalises the received value before comparison. Default: none. */
  normalise?: (given: string, form: 'prefixed' | 'plain') => string;
  /** Header names understood. Default: both documented ones. */
  headers?: Array<'x-service-signature' | 'service-signature'>;
  /** Verdict when no signature header is present. Default: reject. */
  whenMissing?: Verdict;
  /** The 401 response body. Default: empty. */
  rejectionBody?: string;
  /** The rejection status. Default: 401. */
  rejectionStatus?: number;
}

function strictEqual(given: string, canonical: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(canonical);
  return a.length === b.length && timingSafeEqual(a, b);
}

function verdict(secret: string, raw: Buffer, headers: IncomingHttpHeaders, hooks: Hooks): Verdict {
  const names = hooks.headers ?? ['x-service-signature', 'service-signature'];
  let seen = false;
  for (const name of names) {
    const given = headers[name];
    if (given === undefined) continue;
    seen = true;
    if (typeof given !== 'string') return 'reject';
    const form = name === 'x-service-signature' ? 'prefixed' : 'plain';
    const hex = createHmac('sha256', secret)
      .update(hooks.hmacInput ? hooks.hmacInput(raw) : raw)
      .digest('hex');
    const canonical = form === 'prefixed' ? `sha256=${hex}` : hex;
    const value = hooks.normalise ? hooks.normalise(given, form) : given;
    if (!(hooks.matches ?? strictEqual)(value, canonical)) return 'reject';
  }
  return seen ? 'accept' : (hooks.whenMissing ?? 'reject');
}

function faultyReceiver(secret: string, hooks: Hooks): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (verdict(secret, Buffer.concat(chunks), req.headers, hooks) === 'accept') {
          res.writeHead(204, { 'Content-Length': '0' }).end();
        } else {
          const body = hooks.rejectionBody ?? '';
          res
            .writeHead(hooks.rejectionStatus ?? 401, {
              'Content-Type': 'application/json',
              'Content-Length': String(Buffer.byteLength(body)),
            })
            .end(body);
        }
      } catch {
        res.writeHead(500, { 'Content-Length': '0' }).end();
      }
    });
  });
}

export interface ZooEntry {
  /** What is wrong with it. */
  fault: string;
  /** The receiver-fuzz property that must fail against it. */
  caughtBy: string;
  /** The cause the fuzz must name for it (a refused valid signature, proven by re-signing). */
  cause?: RegExp;
  create: (secret: string) => Server;
}

const withPrefix = (form: 'prefixed' | 'plain', hex: string) =>
  form === 'prefixed' ? `sha256=${hex}` : hex;

/** The body as text, byte for byte (latin1), changed by `f`, back to bytes. */
const latin1 = (raw: Buffer, f: (t: string) => string) =>
  Buffer.from(f(raw.toString('latin1')), 'latin1');

/** The body decoded as UTF-8, changed by `f`, encoded again. */
const unicode = (raw: Buffer, f: (t: string) => string) => Buffer.from(f(raw.toString('utf8')));

/** What a parse-and-serialise receiver hashes (the raw bytes when they are not JSON). */
function reserialised(
  raw: Buffer,
  transform: (v: unknown) => unknown,
  text: (t: string) => string = (t) => t,
): Buffer {
  try {
    return Buffer.from(text(JSON.stringify(transform(JSON.parse(raw.toString('utf8'))))));
  } catch {
    return raw;
  }
}

export const ZOO: readonly ZooEntry[] = [
  {
    fault: 'accepts uppercase hex',
    caughtBy: 'uppercase-hex-rejected',
    create: (s) => faultyReceiver(s, { matches: (g, c) => strictEqual(g.toLowerCase(), c) }),
  },
  {
    fault: 'accepts the prefixed form without its sha256= prefix',
    caughtBy: 'prefix-mismatch-rejected',
    create: (s) =>
      faultyReceiver(s, { normalise: (g, form) => withPrefix(form, g.replace(/^sha256=/, '')) }),
  },
  {
    fault: 're-serialises the JSON before the HMAC',
    caughtBy: 'non-canonical-json-authenticates',
    cause: /re-serialising the JSON \(JSON\.parse, then JSON\.stringify/,
    create: (s) =>
      faultyReceiver(s, {
        hmacInput: (raw) => {
          try {
            return Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
          } catch {
            return raw;
          }
        },
      }),
  },
  {
    fault: 'decodes the body as UTF-8 before the HMAC',
    // Harmless for every body the service sends (valid UTF-8): a warning, not a failure.
    caughtBy: 'invalid-utf8-body-authenticates',
    cause: /decoding the body as UTF-8/,
    create: (s) =>
      faultyReceiver(s, { hmacInput: (raw) => Buffer.from(raw.toString('utf8'), 'utf8') }),
  },
  {
    fault: 'compares only as many characters as were sent',
    caughtBy: 'truncated-signature-rejected',
    create: (s) =>
      faultyReceiver(s, {
        matches: (g, c) => g.length > 0 && strictEqual(g, c.slice(0, g.length)),
      }),
  },
  {
    fault: 'calls timingSafeEqual without a length check (500 on a length mismatch)',
    caughtBy: 'bad-signature-never-5xx',
    create: (s) =>
      faultyReceiver(s, { matches: (g, c) => timingSafeEqual(Buffer.from(g), Buffer.from(c)) }),
  },
  {
    fault: 'answers 401 with a body',
    caughtBy: 'rejection-body-empty',
    create: (s) => faultyReceiver(s, { rejectionBody: '{"error":"invalid signature"}' }),
  },
  {
    fault: 'answers 403 instead of 401 to a wrong signature',
    caughtBy: 'wrong-secret-rejected',
    create: (s) => faultyReceiver(s, { rejectionStatus: 403 }),
  },
  {
    fault: 'accepts a request without any signature header',
    caughtBy: 'missing-signature-rejected',
    create: (s) => faultyReceiver(s, { whenMissing: 'accept' }),
  },
  // Careless steps before the HMAC that the wire never triggers: each needs its body class.
  {
    fault: 'normalises line endings (CRLF and lone CR to LF) before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /line ending/,
    create: (s) =>
      faultyReceiver(s, { hmacInput: (raw) => latin1(raw, (t) => t.replace(/\r\n?/g, '\n')) }),
  },
  {
    fault: 'trims the body before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /trimming/,
    create: (s) => faultyReceiver(s, { hmacInput: (raw) => latin1(raw, (t) => t.trim()) }),
  },
  {
    fault: 'strips a UTF-8 byte-order mark before the HMAC',
    caughtBy: 'careless-invalid-body-authenticates',
    cause: /byte-order mark/,
    create: (s) =>
      faultyReceiver(s, {
        hmacInput: (raw) =>
          raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw,
      }),
  },
  {
    fault: 'hashes the body only up to its first NUL byte',
    caughtBy: 'careless-invalid-body-authenticates',
    cause: /NUL byte/,
    create: (s) =>
      faultyReceiver(s, {
        hmacInput: (raw) => (raw.includes(0) ? raw.subarray(0, raw.indexOf(0)) : raw),
      }),
  },
  {
    fault: 'NFC-normalises the text before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /NFC/,
    create: (s) =>
      faultyReceiver(s, { hmacInput: (raw) => unicode(raw, (t) => t.normalize('NFC')) }),
  },
  {
    fault: 'NFD-normalises the text before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /NFD/,
    create: (s) =>
      faultyReceiver(s, { hmacInput: (raw) => unicode(raw, (t) => t.normalize('NFD')) }),
  },
  {
    fault: 're-serialises the JSON with sorted keys before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /sorted keys/,
    create: (s) => faultyReceiver(s, { hmacInput: (raw) => reserialised(raw, sortKeys) }),
  },
  {
    fault: 're-serialises the JSON ASCII-only before the HMAC',
    caughtBy: 'careless-body-authenticates',
    cause: /ASCII-only/,
    create: (s) =>
      faultyReceiver(s, {
        hmacInput: (raw) =>
          reserialised(
            raw,
            (v) => v,
            (t) =>
              t.replace(
                /[\u007f-\uffff]/g,
                (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
              ),
          ),
      }),
  },
  {
    fault: 'understands only the prefixed form',
    caughtBy: 'valid-signature-accepted',
    create: (s) => faultyReceiver(s, { headers: ['x-service-signature'] }),
  },
  {
    fault: 'understands only the plain form',
    caughtBy: 'valid-signature-accepted',
    create: (s) => faultyReceiver(s, { headers: ['service-signature'] }),
  },
];
