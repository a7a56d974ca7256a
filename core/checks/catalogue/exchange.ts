/**
 * Checks applied to EVERY exchange of the suite (not to one test): rate-limit headers, media
 * types, documented status codes, no 5xx, transport security, response schema.
 */
import { intHeader } from '../../http/rate-budget.ts';
import { isLoopbackHost } from '../../net.ts';
import { schemaViolation, show } from '../failure.ts';
import { defineCheck } from '../registry.ts';

/** JSON's media types: application/json, and a structured type ending in +json (RFC 6839). */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

/** The media type of a Content-Type, lower case, without parameters ('' when absent). */
const mediaType = (ct: string | undefined) => (ct ?? '').split(';')[0]!.trim().toLowerCase();

export const rateLimitHeaders = defineCheck({
  name: 'exchange.ratelimit-headers',
  provenance: 'documented',
  assumptions: [],
  rule: 'Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (integers).',
  kind: 'exchange',
  appliesTo: { columns: 'every-operation' },
  run(ex) {
    const h = ex.response?.headers;
    if (!h) return undefined;
    // Integers, signed: a negative Remaining is ratelimit.values-in-range's verdict.
    const bad = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter(
      (n) => intHeader(h, n) === undefined,
    );
    if (bad.length === 0) return undefined;
    return {
      received: `${ex.response!.status} with ${bad.map((n) => `${n}: ${h[n] === undefined ? '(absent)' : show(h[n])}`).join(', ')}`,
      expected:
        'all three X-RateLimit headers present as integers on every response, 2xx and 4xx alike',
    };
  },
});

export const contentType = defineCheck({
  name: 'exchange.content-type',
  provenance: 'assumed',
  rule: 'JSON bodies are application/json; errors are application/problem+json (U16).',
  kind: 'exchange',
  run(ex) {
    const r = ex.response;
    if (!r || r.status === 204 || r.bodyText.length === 0) return undefined;
    const ct = mediaType(r.headers['content-type']);
    // A label naming another media type than JSON is exchange.json-body's verdict (documented:
    // all API traffic is JSON): here only which JSON type, and an absent label.
    if (ct && !JSON_MEDIA_TYPE.test(ct)) return undefined;
    const want = r.status >= 400 ? 'application/problem+json' : 'application/json';
    if (ct === want) return undefined;
    return {
      received: `${r.status} with Content-Type ${ct || '(absent)'}`,
      expected: `Content-Type ${want}`,
    };
  },
});

export const documentedStatus = defineCheck({
  name: 'exchange.documented-status',
  provenance: 'assumed',
  rule: 'Every status code is one the spec lists for the operation (U5–U10, U16–U22).',
  kind: 'exchange',
  run(ex) {
    const r = ex.response;
    const op = ex.operation;
    if (!r || !op || r.status >= 500) return undefined; // 5xx is exchange.no-5xx's verdict
    if (op.responses.has(String(r.status))) return undefined;
    return {
      received: `${r.status} from ${op.method} ${op.template}`,
      expected: `one of ${[...op.responses.keys()].join(', ')}`,
    };
  },
});

export const no5xx = defineCheck({
  name: 'exchange.no-5xx',
  provenance: 'documented',
  assumptions: [],
  rule: 'The API uses standard HTTP status codes: a client mistake is a 4xx, never a server error.',
  kind: 'exchange',
  appliesTo: { columns: 'every-operation' },
  run(ex) {
    const r = ex.response;
    if (!r || r.status < 500) return undefined;
    return { received: `${r.status} ${show(r.bodyText, 120)}`, expected: 'a 2xx or a 4xx problem' };
  },
});

export const secureTransport = defineCheck({
  name: 'exchange.transport-secure',
  provenance: 'documented',
  assumptions: [],
  rule: 'All API traffic is JSON over HTTPS.',
  kind: 'exchange',
  appliesTo: { columns: 'every-operation' },
  run(ex) {
    const u = new URL(ex.request.url);
    if (u.protocol === 'https:' || isLoopbackHost(u.hostname)) return undefined;
    return { received: `plain HTTP to ${u.host}`, expected: 'HTTPS for every non-loopback target' };
  },
});

/**
 * "All API traffic is JSON": the body is JSON, and its label says so. HTTP names a body's format by
 * its Content-Type (RFC 9110 §8.3), and JSON's media type is application/json (RFC 8259 §11) or a
 * structured type ending in +json (RFC 6839): a JSON body labelled text/plain is plain text to a
 * client that reads the label. No label at all names no other format: not judged here (which JSON
 * type, and a missing one, are exchange.content-type's, assumed).
 */
export const jsonBody = defineCheck({
  name: 'exchange.json-body',
  provenance: 'documented',
  // The error body's shape is not shown (U16): that an error body is JSON at all is our reading of
  // "all API traffic is JSON", so a plain-text one is a mismatch of U16; a 2xx body stays JSON.
  assumptions: ['U16'],
  rule: 'All API traffic is JSON over HTTPS.',
  kind: 'exchange',
  appliesTo: { columns: 'every-operation' },
  run(ex) {
    const r = ex.response;
    // An empty body carries no non-JSON data (204, or a HEAD); its absence where a schema
    // expects content is exchange.response-schema's verdict (assumed shapes).
    if (!r || r.bodyText.length === 0) return undefined;
    const ct = mediaType(r.headers['content-type']);
    const mislabelled = ct !== '' && !JSON_MEDIA_TYPE.test(ct);
    if (r.json !== undefined && !mislabelled) return undefined;
    return {
      received:
        r.json === undefined
          ? `${r.status} body not JSON: ${show(r.bodyText, 80)}`
          : `${r.status} with a JSON body labelled Content-Type ${ct}: ${show(r.bodyText, 60)}`,
      expected: 'a JSON body, labelled as JSON (application/json, or a type ending in +json)',
      ...(r.status >= 400
        ? {
            leansOn: {
              gap: 'U16',
              why: `the body of an error answer (${r.status}): the docs do not show the error body shape, so one that is not JSON may still be a correct deployment's`,
            },
          }
        : {}),
    };
  },
});

export const responseSchema = defineCheck({
  name: 'exchange.response-schema',
  provenance: 'assumed',
  rule: "Every response body validates against the spec's schema for its operation and status.",
  kind: 'exchange',
  run(ex) {
    const r = ex.response;
    const spec = r && ex.operation?.responses.get(String(r.status));
    if (!r || !spec?.schema) return undefined;
    // A missing or unparsable body cannot satisfy a schema: without this the check passed on a
    // 200 with an empty or HTML body.
    if (r.json === undefined)
      return {
        received: `${r.status} body ${r.bodyText.length === 0 ? '(empty)' : `not JSON: ${show(r.bodyText, 80)}`}`,
        expected: `a JSON ${spec.schema}`,
      };
    const v = schemaViolation(spec.schema, r.json);
    return v && { ...v, received: `${r.status} body: ${v.received}` };
  },
});

export const EXCHANGE_CHECKS = [
  rateLimitHeaders,
  contentType,
  documentedStatus,
  no5xx,
  secureTransport,
  jsonBody,
  responseSchema,
];
