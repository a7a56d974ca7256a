/** Request validation: invalid input is rejected with a 4xx problem, with the assumed statuses. */
import { validate } from '../../schemas/registry.ts';
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';

const s = (ex: Exchange) => ex.response?.status;

export const invalidRejected = defineCheck({
  name: 'validation.invalid-rejected',
  provenance: 'documented',
  assumptions: [],
  rule: 'Creation input: subject and requester are required; priority is one of low, normal, high.',
  kind: 'scenario',
  run(ex, a: { what: string }) {
    const st = s(ex);
    // A 5xx accepted nothing either: it breaks exchange.no-5xx, which judges every answer.
    return st !== undefined && st >= 400
      ? undefined
      : { received: `${st ?? ex.error} for ${a.what}`, expected: 'a 4xx rejection' };
  },
});

const statusCheck = <const N extends string>(name: N, want: number, rule: string) =>
  defineCheck({
    name,
    provenance: 'assumed',
    rule,
    kind: 'scenario',
    run(ex, a: { what: string }) {
      const st = s(ex);
      // A 5xx is exchange.no-5xx's verdict (every answer), not a wrong choice of 4xx.
      return st === want || (st !== undefined && st >= 500)
        ? undefined
        : { received: `${st ?? ex.error} for ${a.what}`, expected: String(want) };
    },
  });

export const status422 = statusCheck(
  'validation.status-422',
  422,
  'U20: a body that violates the schema → 422.',
);
export const malformed400 = statusCheck(
  'validation.malformed-400',
  400,
  'U20: malformed JSON → 400.',
);
export const tooLarge413 = statusCheck(
  'validation.too-large-413',
  413,
  'U26: a body over 1 MiB → 413.',
);
export const unknown404 = statusCheck(
  'validation.unknown-404',
  404,
  'U21: an unknown ticket → 404.',
);

export const problemBody = defineCheck({
  name: 'validation.problem-body',
  provenance: 'assumed',
  rule: 'U16: every 4xx carries an RFC 9457 problem body {type, title, status, code, request_id}.',
  kind: 'scenario',
  run(ex) {
    const r = ex.response;
    if (!r || r.status < 400) return undefined;
    const issues =
      r.json === undefined
        ? [{ pointer: '', message: 'body is not JSON' }]
        : validate('Problem', r.json);
    const mismatch = r.json && (r.json as { status?: unknown }).status !== r.status;
    if (issues.length === 0 && !mismatch) return undefined;
    return {
      received: `${r.status} body ${show(r.bodyText, 120)}${issues.length ? ` (${issues[0]!.pointer || '/'} ${issues[0]!.message})` : ''}`,
      expected: 'a problem body whose status equals the HTTP status',
    };
  },
});

/**
 * args: the invalid field (dotted path, as in the problem's errors[].field), or the fields of
 * which one must be named (a body missing several). Judged on a 4xx answer: one that accepted the
 * input is validation.invalid-rejected's (or status-422's) verdict, a 5xx exchange.no-5xx's.
 */
export const errorFieldNamed = defineCheck({
  name: 'validation.error-field-named',
  provenance: 'assumed',
  rule: 'U16: a validation problem lists each invalid field in errors[{field, code, message}].',
  kind: 'scenario',
  run(ex, a: { field: string | readonly string[] }) {
    const st = s(ex);
    if (st !== undefined && (st < 400 || st >= 500)) return undefined;
    const errors = (ex.response?.json as { errors?: Array<{ field?: unknown }> } | undefined)
      ?.errors;
    // A field that is no string is shown, not String()-ed (a nested array overflows the stack).
    const fields = Array.isArray(errors)
      ? errors.map((e) => (typeof e?.field === 'string' ? e.field : show(e?.field, 80)))
      : [];
    const wanted = typeof a.field === 'string' ? [a.field] : a.field;
    if (fields.some((f) => wanted.some((w) => f === w || f.startsWith(`${w}.`)))) return undefined;
    return {
      received: `errors[].field ${show(fields)}`,
      expected: `an entry for ${wanted.map((w) => show(w)).join(' or ')}`,
    };
  },
});

export const VALIDATION_CHECKS = [
  invalidRejected,
  status422,
  malformed400,
  tooLarge413,
  unknown404,
  problemBody,
  errorFieldNamed,
];
