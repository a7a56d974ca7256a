/**
 * The lax profile of the reference deployment (`serve --lax`, `buildService({ lax: true })`): a
 * *correct* deployment of the documented rules that validates only what the service docs state,
 * as staging in the wild does. It keeps every documented rule — required `subject` and
 * `requester`, the documented types, the `priority` enum, an `<EMAIL>` that is one — and our assumed
 * routes and shapes, but drops our assumed input limits:
 *   - no body-size limit (U26: "body size: not shown");
 *   - no field lengths or counts (U26: subject ≤ 255, ≤ 50 tags, message ≤ 64 KiB, non-empty
 *     strings, a non-empty patch): accepted as sent;
 *   - an update ignores a field of the wrong type (U6: the update payload is not shown) instead of
 *     answering 422; a field of the right type with a value it cannot store (an unknown status or
 *     priority) is still a 422;
 *   - unknown fields are ignored (as in the default profile: the spec has no
 *     `additionalProperties: false`).
 * So the gate passes against it with assumption warnings only (docs/assumptions.md U6, U20, U26).
 */
import type { ValidationIssue } from '../core/schemas/registry.ts';

/** Our assumed size limits (U26): schema keywords a lax deployment does not enforce. */
const SIZE_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/** Request body limit of the lax profile: none in practice (1 GiB keeps a loopback test alive). */
export const LAX_BODY_LIMIT = 1024 * 1024 * 1024;

/**
 * The issues a lax deployment still answers with 422: all but our assumed size limits. An email
 * address keeps its length: at most 254 characters is part of being one (RFC 5321), and the
 * docs give the requester an `<EMAIL>`.
 */
export function laxIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.filter((i) => !SIZE_KEYWORDS.has(i.keyword) || /\/email$/.test(i.pointer));
}

/**
 * An update body without its wrong-typed fields (the lax profile ignores them), and their names.
 * `typeIssues` are the schema's `type` issues of the body; a field is wrong-typed when one of them
 * points at it or inside it (`/tags/3`). A body that is not an object is left as it is (422).
 */
export function withoutWrongTyped(
  body: unknown,
  typeIssues: readonly ValidationIssue[],
): { body: unknown; ignored: string[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { body, ignored: [] };
  const ignored = new Set<string>();
  for (const i of typeIssues) {
    if (i.keyword !== 'type') continue;
    const field = i.pointer.split('/')[1];
    if (field) ignored.add(decodePointerToken(field));
  }
  if (ignored.size === 0) return { body, ignored: [] };
  const kept = Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(([k]) => !ignored.has(k)),
  );
  return { body: kept, ignored: [...ignored] };
}

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
function decodePointerToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}
