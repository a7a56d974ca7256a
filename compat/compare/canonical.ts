/**
 * A probe or limit value in canonical form, so two runs compare equal when they behave alike:
 * sorted keys, and timestamps and generated ids replaced by placeholders.
 */

/**
 * Parts of a probe value that differ on every run and say nothing about behaviour: timestamps,
 * generated ids (`ctc_nE_S3RZRli7A`, UUIDs, long hex). They become placeholders before comparing.
 */
const VOLATILE_TEXT: Array<[RegExp, string]> = [
  // The zone designator stays: a deployment dropping the Z is a change.
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?/g, '<date-time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
  // A page cursor is opaque data (where the list stood), not behaviour: `cursor=eyJzIjo2fQ`.
  [/([?&](?:cursor|page_token|starting_after|ending_before)=)[^&>\s"']+/gi, '$1<cursor>'],
];

/**
 * A prefixed random id (`ctc_nE_S3RZRli7A`): a digit or a capital in it, which error codes like
 * `invalid_request_body` have not. Decided on the match, not by a lookahead: a lookahead over
 * the rest of the word at each `_` would be quadratic on a long word of a target's text.
 */
const PREFIXED_ID = /\b[a-z]{2,8}_[A-Za-z0-9_-]{8,}/g;
const HAS_DIGIT_OR_CAPITAL = /[A-Z0-9]/;

export function normalizeVolatile(s: string): string {
  const [dates, uuids, ...rest] = VOLATILE_TEXT;
  let t = s.replace(dates![0], dates![1]).replace(uuids![0], uuids![1]);
  t = t.replace(PREFIXED_ID, (m) =>
    HAS_DIGIT_OR_CAPITAL.test(m.slice(m.indexOf('_') + 1)) ? '<id>' : m,
  );
  return rest.reduce((x, [re, token]) => x.replace(re, token), t);
}

/** JSON with sorted keys, and the members of `{varies: [...]}` in a stable order. */
export function canonical(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(normalizeVolatile(v));
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    if (keys.length === 1 && keys[0] === 'varies' && Array.isArray(o.varies))
      return `{"varies":[${o.varies.map(canonical).sort().join(',')}]}`;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}
