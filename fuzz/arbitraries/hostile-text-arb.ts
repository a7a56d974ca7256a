/**
 * Text that breaks services which treat strings carelessly on their way to JSON and back: astral
 * emoji (surrogate pairs in UTF-16, 4 bytes in UTF-8), ZWJ sequences, RTL text and bidi controls,
 * NFC/NFD pairs, HTML with `<script>` and entities, and JSON-hostile characters (`"`, `\`,
 * U+2028/U+2029, control characters, NUL). Lengths are counted in code points, as JSON Schema's
 * `minLength`/`maxLength` count them, so a drawn string honours the schema it is drawn for.
 */
import fc from 'fast-check';

/** Number of code points (what JSON Schema string lengths count). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The first `max` code points of `text` (never splits a surrogate pair). */
export function takeCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let n = 0;
  for (const c of text) {
    if (n++ >= max) break;
    out += c;
  }
  return out;
}

/** Pieces that each exercise one way of mishandling text. */
export const HOSTILE_PIECES: readonly string[] = [
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '𠜎',
  'שלום עולם',
  'مرحبا بالعالم',
  '\u202Eevil\u202C',
  '\u200F',
  'café',
  'cafe\u0301',
  'Å',
  'A\u030A',
  '가',
  '\u1100\u1161',
  '<script>alert(1)</script>',
  '&lt;b&gt;&amp;&quot;&#39;&#x1F600;',
  '<img src=x onerror="alert(1)">',
  '"',
  '\\',
  '\\u0000',
  '\u2028',
  '\u2029',
  '\u0000',
  '\u0007',
  '\r\n',
  '\t',
  '\uFEFF',
  '\u00A0',
  '</',
  '{"a":1}',
  "'; DROP TABLE tickets; --",
  '%s%n',
  '$' + '{x}',
];

/** One unit of hostile text: a known-bad piece, or any grapheme or code point. */
export const hostileUnitArb = () =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE_PIECES), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 }), weight: 2 },
  );

/** Options of {@link hostileTextArb}. */
export interface HostileTextOptions {
  /** Fewest code points. Default 0. */
  minLength?: number;
  /** Most code points. Default 40. */
  maxLength?: number;
}

/** Hostile text of `minLength`–`maxLength` code points. */
export const hostileTextArb = (options: HostileTextOptions = {}) => {
  const { minLength = 0, maxLength = 40 } = options;
  return fc
    .array(hostileUnitArb(), { minLength: minLength > 0 ? 1 : 0, maxLength: 12 })
    .map((units) => takeCodePoints(units.join(''), maxLength))
    .filter((text) => codePointLength(text) >= minLength);
};

/** The same text twice, once NFC and once NFD, differing as strings (both go through the service). */
export const nfcNfdTextPairArb = () =>
  fc
    .tuple(
      hostileTextArb({ maxLength: 10 }),
      fc.constantFrom('é', 'Å', 'ñ', 'ü', '가', 'が', 'ṩ'),
      hostileTextArb({ maxLength: 10 }),
    )
    .map(([a, c, b]) => {
      const text = a + c + b;
      return { nfc: text.normalize('NFC'), nfd: text.normalize('NFD') };
    })
    .filter(({ nfc, nfd }) => nfc !== nfd);

/** HTML message bodies: markup, scripts, entities, mixed with hostile text. */
export const htmlMessageArb = () =>
  fc
    .tuple(
      fc.constantFrom('p', 'div', 'b', 'script', 'a href="javascript:alert(1)"', 'style'),
      hostileTextArb({ maxLength: 30 }),
      fc.constantFrom('&amp;', '&lt;', '&#x1F600;', '&nbsp;', '&bogus;', '&#0;'),
    )
    .map(([tag, text, entity]) => {
      const name = tag.split(' ')[0] ?? tag;
      return `<${tag}>${text} ${entity}</${name}>`;
    });
