/**
 * Bodies that survive the wire byte for byte but not a careless receiver: each class is one thing
 * a receiver may do to the body before hashing it (normalise line endings, trim, strip a BOM, stop
 * at a NUL, decode as text, normalise Unicode, re-serialise the JSON). The service signs the bytes
 * it sends, so a validly signed body of every class must authenticate over exactly those bytes.
 *
 * Each class is its own arbitrary so a fuzz run can send one body of every class whatever its
 * case count (fuzz/receiver/properties.ts, `coverage`), rather than leave a class to chance.
 * Bodies are event-shaped JSON where the class allows it, so a receiver that parses before it
 * verifies cannot dodge the check with a 400.
 *
 * Two kinds: SENDABLE_BODY_CLASSES are JSON texts in UTF-8, bodies the service may send (the docs
 * promise JSON, not one spelling of it); INVALID_BODY_CLASSES are bodies it never sends (a
 * byte-order mark or a raw NUL is not JSON per RFC 8259, invalid UTF-8 is not UTF-8), so a
 * receiver that fails only on those is hardened less, not wrong.
 */
import fc from 'fast-check';
import { INVALID_UTF8_SNIPPETS, jsonEventArb, utf8 } from './body-arb.ts';
import { escapeNonAscii } from './json-text-arb.ts';

export interface BodyClass {
  name: string;
  /** The careless step it is made to expose (what it can catch, not a diagnosis). */
  alteredBy: string;
  /** Whether the service may send such a body: JSON text in UTF-8. */
  sendable: boolean;
  arb: () => fc.Arbitrary<Uint8Array>;
}

const compact = () => jsonEventArb().map((v) => JSON.stringify(v));
const pretty = () => jsonEventArb().map((v) => JSON.stringify(v, null, 2));

/** Text with a character that has distinct NFC and NFD spellings, in one of the two forms. */
const COMPOSABLE = ['é', 'ñ', 'ü', 'Å', 'ṩ', 'ǖ', '가', 'が', 'Ω'];
const normalisedSubject = (form: 'NFC' | 'NFD') =>
  fc
    .tuple(
      jsonEventArb(),
      fc.string({ maxLength: 10 }),
      fc.constantFrom(...COMPOSABLE),
      fc.string({ maxLength: 10 }),
    )
    .map(([v, a, c, b]) => {
      const subject = `${a}${c}${b}`.normalize(form);
      return utf8(JSON.stringify({ ...v, ticket: { ...v.ticket, subject } }));
    })
    .filter((bytes) => {
      const text = new TextDecoder().decode(bytes);
      return text !== text.normalize(form === 'NFC' ? 'NFD' : 'NFC');
    });

/** Non-ASCII text worth escaping: accents, a BMP symbol, an astral emoji, the JS line separators. */
const NON_ASCII = ['café', '☃', '😀', '\u2028', '\u2029', 'Zoë', '𝔘𝔫𝔦'];
const nonAsciiNote = () =>
  fc.array(fc.constantFrom(...NON_ASCII), { minLength: 1, maxLength: 4 }).map((xs) => xs.join(' '));

/** Spellings of numbers that a parse/serialise round trip rewrites (1.0 → 1, 1e2 → 100, -0 → 0). */
const NUMBER_SPELLINGS = ['1.0', '1e2', '2E+1', '-0', '0.10', '1.5e-3', '100.00'];

export const CARELESS_BODY_CLASSES: readonly BodyClass[] = [
  {
    name: 'crlf-line-endings',
    alteredBy: 'normalising CRLF line endings to LF',
    sendable: true,
    arb: () => pretty().map((t) => utf8(t.replace(/\n/g, '\r\n'))),
  },
  {
    name: 'lone-cr-line-endings',
    alteredBy: 'normalising lone CR line endings to LF',
    sendable: true,
    arb: () => pretty().map((t) => utf8(t.replace(/\n/g, '\r'))),
  },
  {
    name: 'outer-whitespace',
    alteredBy: 'trimming leading/trailing whitespace',
    sendable: true,
    arb: () =>
      fc
        .tuple(
          fc.constantFrom(' ', '\t', '\n', '\r\n', '  \n'),
          compact(),
          fc.constantFrom(' ', '\n', '\r\n', '\t\n', '\n\n'),
        )
        .map(([a, t, b]) => utf8(`${a}${t}${b}`)),
  },
  {
    name: 'bom',
    alteredBy: 'stripping a UTF-8 byte-order mark (TextDecoder does it silently)',
    sendable: false,
    arb: () => compact().map((t) => Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(t)])),
  },
  {
    name: 'nul',
    alteredBy: 'stopping at a NUL byte (C strings)',
    sendable: false,
    arb: () =>
      fc.tuple(compact(), fc.nat()).map(([t, at]) => {
        const bytes = utf8(t);
        const i = 1 + (at % (bytes.length - 1));
        return Uint8Array.from([...bytes.subarray(0, i), 0, ...bytes.subarray(i)]);
      }),
  },
  {
    name: 'invalid-utf8',
    alteredBy: 'decoding the body as UTF-8 text (invalid sequences become U+FFFD)',
    sendable: false,
    arb: () =>
      fc
        .tuple(compact(), fc.constantFrom(...INVALID_UTF8_SNIPPETS))
        .map(([t, bad]) =>
          Uint8Array.from([...utf8(`${t.slice(0, -1)},"note":"`), ...bad, ...utf8('"}')]),
        ),
  },
  {
    name: 'nfc-text',
    alteredBy: 'Unicode-normalising the text to NFD',
    sendable: true,
    arb: () => normalisedSubject('NFC'),
  },
  {
    name: 'nfd-text',
    alteredBy: 'Unicode-normalising the text to NFC',
    sendable: true,
    arb: () => normalisedSubject('NFD'),
  },
  {
    name: 'unicode-escapes',
    alteredBy: 're-serialising JSON (\\u escapes come back as raw characters)',
    sendable: true,
    arb: () =>
      fc
        .tuple(compact(), nonAsciiNote())
        .map(([t, note]) =>
          utf8(escapeNonAscii(`${t.slice(0, -1)},"note":${JSON.stringify(note)}}`)),
        ),
  },
  {
    name: 'raw-characters',
    alteredBy: 're-serialising JSON ASCII-only (raw characters come back as \\u escapes)',
    sendable: true,
    arb: () =>
      fc
        .tuple(compact(), nonAsciiNote())
        .map(([t, note]) => utf8(`${t.slice(0, -1)},"note":${JSON.stringify(note)}}`)),
  },
  {
    name: 'key-order',
    alteredBy: 're-serialising JSON with sorted keys (Go maps, sort_keys)',
    sendable: true,
    arb: () =>
      jsonEventArb().map((v) =>
        utf8(
          JSON.stringify({
            ticket: { subject: v.ticket.subject, id: v.ticket.id, status: v.ticket.status },
            event: v.event,
            customer: { name: v.customer.name, email: v.customer.email },
          }),
        ),
      ),
  },
  {
    name: 'number-spellings',
    alteredBy: 're-serialising JSON numbers (1.0 → 1, 1e2 → 100, -0 → 0)',
    sendable: true,
    arb: () =>
      fc
        .tuple(
          compact(),
          fc.uniqueArray(fc.constantFrom(...NUMBER_SPELLINGS), { minLength: 1, maxLength: 4 }),
        )
        .map(([t, nums]) => utf8(`${t.slice(0, -1)},"amounts":[${nums.join(',')}]}`)),
  },
];

/** Bodies the service may send: JSON text in UTF-8, however spelled. */
export const SENDABLE_BODY_CLASSES = CARELESS_BODY_CLASSES.filter((c) => c.sendable);

/** Bodies the service never sends: not JSON (BOM, NUL) or not UTF-8. */
export const INVALID_BODY_CLASSES = CARELESS_BODY_CLASSES.filter((c) => !c.sendable);

/** A body of any of `classes` (default: all), with its class name (for the counterexample's notes). */
export const carelessBodyArb = (classes: readonly BodyClass[] = CARELESS_BODY_CLASSES) =>
  fc.oneof(...classes.map((c) => c.arb().map((body) => ({ className: c.name, body }))));
