/**
 * JSON texts whose re-serialisation (`JSON.stringify(JSON.parse(text))`) is a different byte
 * string: indentation, spaces, escaped non-ASCII, non-canonical numbers, trailing newline. The
 * service signs the bytes it sends, so a receiver that re-serialises before the HMAC breaks on them.
 */
import fc from 'fast-check';

/** Every character from U+007F up as a `\uXXXX` escape: the same JSON value, other bytes. */
export function escapeNonAscii(text: string): string {
  return text.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export const nonCanonicalJsonTextArb = () =>
  fc
    .tuple(
      fc.oneof(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
          minKeys: 1,
          maxKeys: 5,
        }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 5 }),
      ),
      fc.constantFrom('indent', 'tab', 'escape', 'number', 'newline', 'space'),
    )
    .map(([value, style]) => {
      switch (style) {
        case 'indent':
          return JSON.stringify(value, null, 2);
        case 'tab':
          return JSON.stringify(value, null, '\t');
        case 'escape':
          // The prefix guarantees one escape even when the value is all ASCII.
          return escapeNonAscii(`{"text":"café","v":${JSON.stringify(value)}}`);
        case 'number':
          return `{"n":1.0,"v":${JSON.stringify(value)}}`;
        case 'newline':
          return `${JSON.stringify(value)}\n`;
        default:
          return ` ${JSON.stringify(value)} `;
      }
    })
    .filter((text) => JSON.stringify(JSON.parse(text)) !== text);
