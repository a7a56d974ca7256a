/**
 * Text for a terminal: what the target wrote is shown, never acted on. A ticket subject quoted in
 * a failure may hold what a terminal acts on instead of printing — control characters (ESC
 * sequences, NUL, backspace, CR), C1 controls, line and paragraph separators, bidi controls that
 * reorder what a reader sees; a long-lived staging holds all of them. Each is shown as its
 * `\u{…}` escape; line feeds and tabs stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u{${c.codePointAt(0)!.toString(16).padStart(4, '0')}}`,
  );
}
