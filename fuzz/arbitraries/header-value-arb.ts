/** Header values as receivers get them: strings of any shape, and the non-strings frameworks hand over. */
import fc from 'fast-check';

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF');

/** Strings that look more or less like signatures, and strings that do not. */
export const headerStringArb = () =>
  fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.string({ unit: 'binary', maxLength: 120 }),
    fc.string({ unit: hexChar, minLength: 60, maxLength: 72 }),
    fc.string({ unit: hexChar, minLength: 60, maxLength: 72 }).map((h) => `sha256=${h}`),
    fc.string({ unit: hexChar, minLength: 64, maxLength: 64 }).map((h) => `sha256=${h}`),
    fc.string({ unit: hexChar, minLength: 64, maxLength: 64 }),
  );

/** Non-string values: absent, null, numbers, arrays (duplicated headers), objects, bytes. */
export const nonStringHeaderValueArb = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.bigInt(),
    fc.array(headerStringArb(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
    fc.uint8Array({ maxLength: 71 }),
    fc.constant(Symbol('signature')),
  );

/** A string of 1–8 MiB: must be rejected quickly and without copying. */
export const hugeHeaderStringArb = () =>
  fc
    .tuple(
      fc.constantFrom('a', '0', 'sha256=', ' ', 'é'),
      fc.integer({ min: 1 << 20, max: 8 << 20 }),
    )
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Any header value at all. */
export const anyHeaderValueArb = () =>
  fc.oneof(
    { arbitrary: headerStringArb(), weight: 6 },
    { arbitrary: nonStringHeaderValueArb(), weight: 3 },
    { arbitrary: hugeHeaderStringArb(), weight: 1 },
  );
