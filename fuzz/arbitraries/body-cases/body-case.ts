/** One generated request case, a body or a query string: what it is (`kind`, `note`) and what is sent. */

export type BodyCaseKind =
  | 'valid'
  | 'at-limit'
  | 'too-long'
  | 'too-short'
  | 'drop-required'
  | 'wrong-type'
  | 'out-of-enum'
  | 'bad-format'
  | 'too-many-items'
  | 'extra-fields'
  | 'deep-junk'
  | 'non-object'
  | 'malformed-json'
  | 'media-type'
  | 'over-body-limit'
  | 'query';

/** One request body. `raw` (sent as is) wins over `json` (serialised). */
export interface BodyCase {
  kind: BodyCaseKind;
  /** What was done, e.g. `requester.email dropped`. */
  note: string;
  json?: unknown;
  raw?: string;
  /** Content-Type to send instead of the operation's; `null` sends none. */
  contentType?: string | null;
  /** Where a one-place mutation was made (extra-fields: the object; deep-junk: the value). */
  at?: ReadonlyArray<string | number>;
  /** extra-fields: the unknown keys added at `at`. */
  keys?: string[];
  /**
   * query: the query string sent (`raw`, percent-encoded) and the values it means (`values`);
   * such a case has no body.
   */
  query?: { raw: string; values: Record<string, string> };
  /** deep-junk: how deep and in what shape the junk at `at` nests. */
  deep?: { depth: number; shape: 'array' | 'object' | 'mixed' };
  /**
   * A packed case (the gate-sized fuzz: packed-sampler.ts): the one-class cases it carries at
   * once, each a whole case of its own — sent one by one only when the packed case fails, so the
   * failure names the input that broke the rule.
   */
  parts?: BodyCase[];
}

/**
 * `json` serialised and padded with insignificant whitespace to `bytes` bytes (never shorter than
 * its JSON): a body of that size whose values stay as they are. The bulk of a body near or over
 * the size limit goes there, never into a value — a deployment without the limit stores what it
 * accepts, and lists show a ticket's subject, requester and tags to every later run.
 */
export function paddedJson(json: unknown, bytes: number): string {
  const text = JSON.stringify(json);
  const pad = Math.max(0, bytes - Buffer.byteLength(text));
  return text.endsWith('}')
    ? `${text.slice(0, -1)}${' '.repeat(pad)}}`
    : `${text}${' '.repeat(pad)}`;
}
