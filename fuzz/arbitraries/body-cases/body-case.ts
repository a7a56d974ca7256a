/** One generated request body case: what it is (`kind`, `note`) and what is sent. */

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
  | 'over-body-limit';

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
  /** deep-junk: how deep and in what shape the junk at `at` nests. */
  deep?: { depth: number; shape: 'array' | 'object' | 'mixed' };
}
