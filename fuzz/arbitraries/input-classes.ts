/**
 * The classes of input people really type, as the API input fuzz counts them: text from every
 * Unicode plane and of every troublesome kind, lengths at and across every boundary the spec
 * states or assumes (U26: subject 255, message 65 536 = 64 KiB, body 1 MiB) and the usual column
 * sizes past them (1 000, 10 000), tags lists short and long, numbers at the edges of their type.
 *
 * A case's classes are read from what it sent (`classesOf`), never from what its generator meant:
 * a random body that happens to carry an emoji counts for `plane-1`, and a class no case carried
 * shows 0. The class sampler (body-cases/class-sampler.ts, query-case-arb.ts) sends each class
 * that applies to an operation at least once, by construction.
 */
import { LONE_SURROGATE } from '../../core/unicode.ts';
import { codePointLength } from './hostile-text-arb.ts';

export type ClassFamily = 'text' | 'length' | 'tags' | 'number';

export interface InputClass {
  name: string;
  family: ClassFamily;
  /** What a case of the class carries, for people. */
  what: string;
}

/** How each text class is recognised in a string (or an object key) that was sent. */
const TEXT: ReadonlyArray<[string, string, RegExp]> = [
  ['latin-accents', 'accented Latin letters (Zoë, Ångström)', /[\u00C0-\u024F]/],
  ['combining-marks', 'combining marks (NFD, stacked diacritics)', /\p{M}/u],
  ['cjk', 'CJK ideographs, kana, hangul', /[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]/],
  ['rtl', 'right-to-left scripts (Hebrew, Arabic)', /[\u0590-\u08FF\uFB1D-\uFDCF\uFE70-\uFEFC]/],
  [
    'bidi-controls',
    'bidirectional controls (U+202E, U+200F…)',
    /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/,
  ],
  ['emoji', 'emoji (pictographs, ZWJ sequences, flags)', /\p{Extended_Pictographic}/u],
  ['plane-1', 'plane 1, SMP (emoji, math letters)', /[\u{10000}-\u{1FFFF}]/u],
  ['plane-2', 'plane 2, SIP (CJK extension B: 𠜎)', /[\u{20000}-\u{2FFFF}]/u],
  ['plane-3', 'plane 3, TIP (CJK extension G)', /[\u{30000}-\u{3FFFF}]/u],
  ['planes-4-13', 'planes 4–13 (unassigned code points)', /[\u{40000}-\u{DFFFF}]/u],
  ['plane-14', 'plane 14, SSP (tag characters, variation selectors)', /[\u{E0000}-\u{EFFFF}]/u],
  ['planes-15-16', 'planes 15–16 (private use)', /[\u{F0000}-\u{10FFFF}]/u],
  ['nul', 'NUL (U+0000)', /\u0000/],
  ['control', 'other control characters (C0, DEL, C1)', /[\u0001-\u001F\u007F-\u009F]/],
  ['line-separators', 'U+2028 and U+2029 (JavaScript line terminators)', /[\u2028\u2029]/],
  ['invisible', 'invisible characters (BOM, zero width)', /[\uFEFF\u200B-\u200D\u2060]/],
  ['noncharacters', 'noncharacters (U+FFFE, U+FFFF, U+FDD0…)', /[\uFDD0-\uFDEF\uFFFE\uFFFF]/],
  ['lone-surrogate', 'a lone surrogate (\\ud800 escape: valid JSON, not Unicode)', LONE_SURROGATE],
];

/** String lengths, in code points (as JSON Schema counts them), at and past the boundaries. */
export const BOUNDARY_LENGTHS = [255, 256, 1000, 10_000, 65_536, 65_537] as const;

const LENGTH_WHAT: Record<(typeof BOUNDARY_LENGTHS)[number], string> = {
  255: 'a string of 255 code points (U26: the longest subject)',
  256: 'a string of 256 code points (one past U26)',
  1000: 'a string of 1 000 code points',
  10000: 'a string of 10 000 code points',
  65536: 'a string of 65 536 code points (64 Ki: the longest message)',
  65537: 'a string of 65 537 code points (one past the longest message)',
};

/** A body this close under the size limit, or closer, is "near the limit". */
export const NEAR_LIMIT_BYTES = 16 * 1024;

const NUMBER: ReadonlyArray<[string, string]> = [
  ['limit-min', 'the smallest value the spec allows'],
  ['limit-max', 'the largest value the spec allows'],
  ['below-min', 'an integer below the minimum (0, −1)'],
  ['above-max', 'an integer above the maximum'],
  ['int32-edge', 'a 32-bit edge (2 147 483 647, 2 147 483 648, −2 147 483 649)'],
  ['int53-edge', 'a 53-bit edge (9 007 199 254 740 991 and past it)'],
  ['float-edge', 'a float edge (1e308, 1e309, 5e-324, −0)'],
  ['non-integer', 'a number that is no integer as written (1.5, 1e2, 0x10, +5)'],
  ['not-a-number', 'no number at all (empty, abc, NaN, Infinity, 😀)'],
];

export const INPUT_CLASSES: readonly InputClass[] = [
  ...TEXT.map(([name, what]) => ({ name, family: 'text' as const, what })),
  ...BOUNDARY_LENGTHS.map((n) => ({
    name: `length-${n}`,
    family: 'length' as const,
    what: LENGTH_WHAT[n],
  })),
  {
    name: 'body-near-limit',
    family: 'length',
    what: `a body within ${NEAR_LIMIT_BYTES / 1024} KiB under the size limit (U26: 1 MiB)`,
  },
  { name: 'body-over-limit', family: 'length', what: 'a body over the size limit (U26: 1 MiB)' },
  { name: 'tags-empty', family: 'tags', what: 'an empty tags list' },
  { name: 'tags-one', family: 'tags', what: 'one tag' },
  { name: 'tags-at-max', family: 'tags', what: 'as many tags as the schema allows (U26: 50)' },
  { name: 'tags-over-max', family: 'tags', what: 'one tag more than the schema allows' },
  { name: 'tags-1000', family: 'tags', what: '1 000 tags or more' },
  ...NUMBER.map(([name, what]) => ({ name, family: 'number' as const, what })),
];

const KNOWN = new Set(INPUT_CLASSES.map((c) => c.name));

/** What decides which classes apply to an operation and how a case is read. */
export interface ClassContext {
  /** Body size limit in bytes (U26). */
  bodyLimit: number;
  /** The operation sends a body (length classes, body size). */
  body: boolean;
  /** The operation has free text (strings that are no enum, no email): body fields or a query parameter. */
  text: boolean;
  /** maxItems of the body's top-level `tags` array, when the schema has one. */
  tagsMax?: number;
  /** The integer query parameter whose edges are sent (the list's `limit`), with its bounds. */
  integer?: { name: string; min: number; max: number };
}

/** The classes that apply to an operation: the ones its sampler sends by construction. */
export function applicableClasses(ctx: ClassContext): InputClass[] {
  return INPUT_CLASSES.filter(
    (c) =>
      (c.family === 'text' && ctx.text) ||
      (c.family === 'length' && ctx.body) ||
      (c.family === 'tags' && ctx.tagsMax !== undefined) ||
      (c.family === 'number' && ctx.integer !== undefined),
  );
}

/** What one case sent, as the classes are read from it. */
export interface SentInput {
  /** The JSON value of the body (undefined when it was not JSON). */
  value?: unknown;
  /** The body's size in bytes. */
  bytes?: number;
  /** The query parameters, decoded as intended (a lone surrogate stays one). */
  query?: Readonly<Record<string, string>>;
}

/** Every string and key in `value`, walked without recursion (a body may nest 5 000 deep). */
function* stringsIn(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') yield v;
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        yield k;
        stack.push(x);
      }
  }
}

function textClasses(s: string, into: Set<string>): void {
  for (const [name, , re] of TEXT) if (!into.has(name) && re.test(s)) into.add(name);
}

function lengthClasses(s: string, into: Set<string>): void {
  // Cheap bounds first: a code point is one or two code units.
  if (s.length < BOUNDARY_LENGTHS[0] || s.length > 2 * BOUNDARY_LENGTHS.at(-1)!) return;
  const n = codePointLength(s);
  if ((BOUNDARY_LENGTHS as readonly number[]).includes(n)) into.add(`length-${n}`);
}

/** The number class of a query value as written (`raw`), given the parameter's bounds. */
export function numberClass(raw: string, bounds: { min: number; max: number }): string {
  if (!/^-?\d+$/.test(raw)) {
    if (/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw)) {
      const x = Number(raw);
      const float = Math.abs(x) >= 1e300 || (x !== 0 && Math.abs(x) < 1e-300) || Object.is(x, -0);
      return float || raw === '-0' ? 'float-edge' : 'non-integer';
    }
    return /^[+-]?(0x[0-9a-f]+|\d)/i.test(raw.trim()) ? 'non-integer' : 'not-a-number';
  }
  const n = BigInt(raw);
  const abs = n < 0n ? -n : n;
  if (abs >= 2n ** 53n - 1n) return 'int53-edge';
  if (abs >= 2n ** 31n - 1n) return 'int32-edge';
  if (raw === '-0') return 'float-edge';
  if (n === BigInt(bounds.min)) return 'limit-min';
  if (n === BigInt(bounds.max)) return 'limit-max';
  return n < BigInt(bounds.min) ? 'below-min' : n > BigInt(bounds.max) ? 'above-max' : 'in-range';
}

/** The classes one sent case carries (a class not in INPUT_CLASSES, like `in-range`, is dropped). */
export function classesOf(sent: SentInput, ctx: ClassContext): Set<string> {
  const out = new Set<string>();
  for (const s of stringsIn(sent.value)) {
    textClasses(s, out);
    if (ctx.body) lengthClasses(s, out);
  }
  for (const v of Object.values(sent.query ?? {})) textClasses(v, out);
  if (ctx.body && sent.bytes !== undefined) {
    if (sent.bytes > ctx.bodyLimit) out.add('body-over-limit');
    else if (sent.bytes > ctx.bodyLimit - NEAR_LIMIT_BYTES) out.add('body-near-limit');
  }
  const value = sent.value as { tags?: unknown } | undefined;
  const tags =
    ctx.tagsMax !== undefined && value !== null && typeof value === 'object'
      ? value.tags
      : undefined;
  if (Array.isArray(tags)) {
    const n = tags.length;
    if (n === 0) out.add('tags-empty');
    else if (n === 1) out.add('tags-one');
    if (n === ctx.tagsMax) out.add('tags-at-max');
    else if (n === ctx.tagsMax! + 1) out.add('tags-over-max');
    if (n >= 1000) out.add('tags-1000');
  }
  const raw = ctx.integer ? sent.query?.[ctx.integer.name] : undefined;
  if (raw !== undefined && ctx.integer) out.add(numberClass(raw, ctx.integer));
  for (const c of out) if (!KNOWN.has(c)) out.delete(c);
  return out;
}
