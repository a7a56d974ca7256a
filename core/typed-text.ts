/**
 * Text people type, one sample per group of the fuzz's input classes: what the contract suite's text test and the fuzz's class
 * sampler send, so both hold a deployment to the same kinds of text. Each sample is at most 40
 * code points, so it fits every free-text field (a tag: 64), and all but the lone surrogates fit
 * one 255-character subject together. A failure names the group, its counterexample the
 * characters.
 */
export const TEXT_SAMPLES: ReadonlyArray<{ note: string; text: string }> = [
  {
    note: 'accented Latin and combining marks',
    text: 'Zoë Ångström cafe\u0301 Z\u0351\u0307a\u0336l\u0328g\u0335o',
  },
  { note: 'CJK', text: '打印机着火了 プリンター 프린터' },
  { note: 'RTL and bidi controls', text: 'המדפסת בוערת الطابعة \u202Eevil\u202C\u200F' },
  { note: 'emoji (plane 1)', text: 'Printer 😀 👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 on fire' },
  { note: 'planes 2 and 3', text: '𠜎𠮷 野家 𰀀𰀁' },
  {
    note: 'planes 4–16 (unassigned, tags, private use)',
    text: '\u{40000} \u{E0067}\u{E0062}\u{E007F} \u{E0100} \u{F0000} \u{10FFFD}',
  },
  { note: 'NUL', text: 'before\u0000after' },
  {
    note: 'control characters and line separators',
    text: 'bell\u0007 esc\u001B del\u007F c1\u0085\u009B ls\u2028 ps\u2029 tab\t nl\n',
  },
  {
    note: 'invisible characters and noncharacters',
    text: 'bom\uFEFF zw\u200B wj\u2060 nc\uFFFE\uFFFF\uFDD0',
  },
  { note: 'lone surrogates (\\ud800, \\udfff)', text: 'lone \ud800 high, \udfff low' },
];
