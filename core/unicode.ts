/**
 * Text that is valid JSON but no Unicode: an unpaired UTF-16 surrogate, written as a `\ud800`
 * escape. RFC 8259 §8.2 leaves what a parser makes of it open, so a service may keep it, replace
 * it with U+FFFD or refuse it; the checks do not judge how such text reads back (never a 5xx).
 */
export const LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` holds an unpaired surrogate. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
