/**
 * What the API input fuzz counts per operation: cases per body kind and per input class, answers per status, and
 * schema-valid and schema-invalid bodies accepted and rejected. Whether a body is schema-valid is
 * decided by the spec's own validator, not by the generator; a service stricter or more lenient
 * than the schema is counted here, not failed.
 */
import type { BodyCase } from '../arbitraries/api-body-arb.ts';
import { classesOf, type ClassContext } from '../arbitraries/input-classes.ts';
import { queryProblem } from '../arbitraries/query-case-arb.ts';
import { validate } from '../../core/schemas/registry.ts';
import type { Answer } from '../shared/http.ts';
import { acceptsMediaType, type InputOperation } from './operations.ts';

export interface ApiInputStats {
  /** Cases per body kind (valid, drop-required, …). */
  kinds: Record<string, number>;
  /** Cases per input class they carried (fuzz/arbitraries/input-classes.ts): a case may carry several. */
  classes: Record<string, number>;
  /** Answers per HTTP status ("none" for no answer). */
  statuses: Record<string, number>;
  /** Schema-valid bodies (per the spec's validator) accepted / rejected. */
  schemaValid: { accepted: number; rejected: number };
  /** Schema-invalid bodies (or not JSON at all) accepted / rejected. */
  schemaInvalid: { accepted: number; rejected: number };
  /** Examples (first 5 each) where the service disagreed with the schema: stricter or more lenient. */
  disagreements: Array<{ kind: string; note: string; schemaValid: boolean; status: string }>;
}

export function emptyStats(): ApiInputStats {
  return {
    kinds: {},
    classes: {},
    statuses: {},
    schemaValid: { accepted: 0, rejected: 0 },
    schemaInvalid: { accepted: 0, rejected: 0 },
    disagreements: [],
  };
}

/** The JSON value a case sends (raw text parsed), or `undefined` when it is not JSON. */
export function sentValue(c: BodyCase): unknown {
  if (c.query) return c.query.values;
  if (c.raw === undefined) return c.json;
  try {
    // RFC 8259 lets a parser ignore a leading byte-order mark; a service that does is right.
    return JSON.parse(c.raw.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/** True when the spec allows the case: a listed media type, `sent` valid against the schema, within the body size limit. */
export function isSchemaValid(spec: InputOperation, c: BodyCase, sent: unknown): boolean {
  if (c.query) return spec.params !== undefined && !queryProblem(spec.params, c.query.values);
  return (
    // Over the size limit (U26) is invalid whatever the values: its bulk is whitespace.
    c.kind !== 'over-body-limit' &&
    (c.contentType === undefined || acceptsMediaType(spec, c.contentType)) &&
    sent !== undefined &&
    validate(spec.schema, sent).length === 0
  );
}

/**
 * The input classes `c` carried, read from what it sent: `sent` (sentValue), `body` the text of
 * its body.
 */
export function caseClasses(
  c: BodyCase,
  sent: unknown,
  body: string,
  ctx: ClassContext,
): Set<string> {
  return classesOf(
    c.query ? { query: c.query.values } : { value: sent, bytes: Buffer.byteLength(body, 'utf8') },
    ctx,
  );
}

export function tallyCase(
  stats: ApiInputStats,
  c: BodyCase,
  ex: Answer,
  schemaValid: boolean,
): void {
  const status = ex.status === undefined ? 'none' : String(ex.status);
  stats.kinds[c.kind] = (stats.kinds[c.kind] ?? 0) + 1;
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  const accepted = ex.status !== undefined && ex.status >= 200 && ex.status < 300;
  const tally = schemaValid ? stats.schemaValid : stats.schemaInvalid;
  if (accepted) tally.accepted++;
  else tally.rejected++;
  const disagrees = accepted !== schemaValid && ex.status !== undefined && ex.status < 500;
  if (disagrees && stats.disagreements.filter((d) => d.schemaValid === schemaValid).length < 5)
    stats.disagreements.push({ kind: c.kind, note: c.note, schemaValid, status });
}
