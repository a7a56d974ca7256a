/**
 * The named properties of a webhook receiver, one rule each. Every property draws whole HTTP
 * requests (so fast-check shrinks them to a minimal counterexample) and judges one response.
 *
 * Status expectations follow the docs (service docs, "Signature"): a valid signature over the raw
 * body is accepted (2xx); a mismatch is answered 401 with an empty body. The strict policy for
 * non-canonical values is the one in core/signature/README.md.
 *
 * Every property has a provenance, as the contract checks do. `documented`: what the docs say a
 * receiver must do with what the service sends (JSON, UTF-8, `Content-Type: application/json`,
 * in the forms given) and with a wrong or missing signature (401, empty body); it fails the run.
 * `assumed`: hardening against requests the service never sends (invalid UTF-8, non-JSON, other
 * or no Content-Type, two conflicting headers) and framing the docs leave open
 * (`Content-Length: 0`); it is a warning with its reason, failing only with `--strict`.
 */
import fc from 'fast-check';
import {
  bodyArb,
  invalidUtf8BodyArb,
  jsonEventBodyArb,
  nulBodyArb,
  textBodyArb,
  utf8,
} from '../arbitraries/body-arb.ts';
import {
  type BodyClass,
  carelessBodyArb,
  INVALID_BODY_CLASSES,
  SENDABLE_BODY_CLASSES,
} from '../arbitraries/careless-body-arb.ts';
import { nonCanonicalJsonTextArb } from '../arbitraries/json-text-arb.ts';
import {
  describeSignatureMutation,
  extendArb,
  flipBitArb,
  flipDigestBitArb,
  garbageArb,
  prefixMismatchArb,
  type SignatureMutation,
  sha1Arb,
  spoilCanonical,
  truncateArb,
  uppercaseArb,
  wireSignatureMutationArb,
  wrongSecretArb,
} from '../arbitraries/signature-mutation-arb.ts';
import {
  SIGNATURE_HEADER,
  type SignatureForm,
  signatureValue,
} from '../../core/signature/index.ts';
import type { Provenance } from '../../core/spec/operations.ts';
import { responseHeader, type WireOutcome, type WireRequest } from '../shared/wire.ts';

/** What a property knows about the run. */
export interface PropertyContext {
  secret: string;
  /** The form under test, for `each-form` properties. */
  form: SignatureForm;
  /** Forms the receiver is expected to accept. */
  forms: readonly SignatureForm[];
}

export interface ReceiverProperty {
  /** Stable name, used by reports and by the zoo tests. */
  name: string;
  /** The rule in one sentence. */
  rule: string;
  /** `documented` fails the run; `assumed` is a warning (fails only with --strict). */
  provenance: Provenance;
  /** Why an assumed property is only assumed: what the docs leave open, or what the service never sends. */
  why?: string;
  /** `each-form`: once per requested form; `once`: form-independent; `all-forms`: only when both forms are requested. */
  scope: 'each-form' | 'once' | 'all-forms';
  /** Requests to send; `null` means "not sendable, skip" (e.g. a header value HTTP cannot carry). */
  cases(ctx: PropertyContext): fc.Arbitrary<WireRequest | null>;
  /**
   * Kinds of case every run must include, whatever its case count: one request is drawn from
   * each (with the run's seed) and sent before the random ones.
   */
  coverage?(ctx: PropertyContext): Array<fc.Arbitrary<WireRequest>>;
  /** A failure reason ("Received … / Expected …"), or undefined when the response obeys the rule. */
  check(outcome: WireOutcome): string | undefined;
}

const other = (form: SignatureForm): SignatureForm => (form === 'prefixed' ? 'plain' : 'prefixed');

/** Characters a header value can carry on the wire (RFC 9110 field-value, obs-text included). */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The value as octets on the wire (UTF-8 bytes shown as latin1, which is how Node sends them), or
 * null when HTTP cannot carry it or when the parser's whitespace trimming would restore the
 * canonical value, so the case would not test what it claims.
 */
function wireValue(value: string, canonical: string): string | null {
  const wire = Buffer.from(value, 'utf8').toString('latin1');
  if (!SENDABLE.test(wire)) return null;
  const trimmed = wire.replace(/^[ \t]+|[ \t]+$/g, '');
  if (trimmed === canonical) return null;
  return trimmed === wire ? wire : null;
}

interface RequestOptions {
  body: Uint8Array;
  /** Signature header lines; default: the valid value of `ctx.form` under its documented name. */
  signatures?: Array<[string, string]>;
  /** Default `application/json`; null sends none. */
  contentType?: string | null;
  chunkSizes?: number[];
  notes?: string[];
}

function request(ctx: PropertyContext, o: RequestOptions): WireRequest {
  const headers: Array<[string, string]> = [];
  const contentType = o.contentType === undefined ? 'application/json' : o.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  headers.push(['User-Agent', 'support-ticketing-harness/receiver-fuzz']);
  const signatures = o.signatures ?? [
    [SIGNATURE_HEADER[ctx.form], signatureValue(ctx.form, ctx.secret, o.body)],
  ];
  headers.push(...signatures);
  return {
    method: 'POST',
    headers,
    body: o.body,
    framing: o.chunkSizes
      ? { kind: 'chunked', chunkSizes: o.chunkSizes }
      : { kind: 'content-length' },
    notes: o.notes ?? [],
  };
}

/** A request whose `ctx.form` signature is spoiled by `mutation`, or null if not sendable. */
function spoiled(
  ctx: PropertyContext,
  body: Uint8Array,
  mutation: SignatureMutation,
  notes: string[] = [],
) {
  const { canonical, value } = spoilCanonical(mutation, { ...ctx, body });
  const wire = wireValue(value, canonical);
  if (wire === null) return null;
  return request(ctx, {
    body,
    signatures: [[SIGNATURE_HEADER[ctx.form], wire]],
    notes: [
      `${SIGNATURE_HEADER[ctx.form]}: ${describeSignatureMutation(mutation, ctx.form)}`,
      ...notes,
    ],
  });
}

const smallBody = () => bodyArb({ maxLength: 256, big: false });

/**
 * Any request the docs say a receiver must reject: a spoiled or a missing signature. (Two values
 * of one header are a policy question, judged by the assumed duplicated-header property.)
 */
function badRequestArb(ctx: PropertyContext): fc.Arbitrary<WireRequest | null> {
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(smallBody(), wireSignatureMutationArb())
        .map(([b, m]) => spoiled(ctx, b, m)),
      weight: 6,
    },
    {
      arbitrary: smallBody().map((b) =>
        request(ctx, { body: b, signatures: [], notes: ['no signature header'] }),
      ),
      weight: 1,
    },
  );
}

/** The documented header twice: one valid, one spoiled, in drawn order. */
function duplicated(
  ctx: PropertyContext,
  body: Uint8Array,
  m: SignatureMutation,
  spoiledFirst: boolean,
) {
  const base = spoiled(ctx, body, m);
  if (!base) return null;
  const name = SIGNATURE_HEADER[ctx.form];
  const bad = base.headers.find(([n]) => n === name)!;
  const good: [string, string] = [name, signatureValue(ctx.form, ctx.secret, body)];
  base.headers = base.headers.filter(([n]) => n !== name);
  base.headers.push(...(spoiledFirst ? [bad, good] : [good, bad]));
  base.notes = [
    `${name} sent twice: the valid value and a spoiled one (${describeSignatureMutation(m, ctx.form)})`,
  ];
  return base;
}

// --- checks -------------------------------------------------------------------------------

function status(outcome: WireOutcome): string {
  return 'error' in outcome
    ? `no response (${outcome.error})`
    : `status ${outcome.response.status}`;
}

const expect2xx = (o: WireOutcome) =>
  'response' in o && o.response.status >= 200 && o.response.status < 300
    ? undefined
    : `Received ${status(o)}; expected 2xx (the signature is valid over the raw body)`;

/** Authenticated: not refused as unauthenticated and no server error; a 4xx for content is the receiver's right. */
const expectAuthenticated = (o: WireOutcome) =>
  'response' in o &&
  o.response.status < 500 &&
  o.response.status !== 401 &&
  o.response.status !== 403
    ? undefined
    : `Received ${status(o)}; expected the request to authenticate (not 401/403, not 5xx): the signature is valid over the raw body`;

const expect401 = (o: WireOutcome) =>
  'response' in o && o.response.status === 401
    ? undefined
    : `Received ${status(o)}; expected 401 (the signature does not match the documented value)`;

const expectNo5xx = (o: WireOutcome) =>
  'response' in o && o.response.status < 500
    ? undefined
    : `Received ${status(o)}; expected a 4xx answer to a bad signature, never a 5xx or a dropped connection`;

/** The docs' "empty body": zero bytes, however HTTP frames them (Content-Length: 0 or chunked). */
function expectEmptyRejection(o: WireOutcome): string | undefined {
  if (!('response' in o) || o.response.status !== 401) return undefined;
  if (o.response.body.length > 0)
    return `Received a 401 with a ${o.response.body.length}-byte body; expected an empty body`;
  return undefined;
}

/** The framing of an empty 401 that tells a client at once that nothing follows. */
function expectContentLengthZero(o: WireOutcome): string | undefined {
  if (!('response' in o) || o.response.status !== 401 || o.response.body.length > 0)
    return undefined;
  const len = responseHeader(o.response, 'content-length');
  if (len === '0') return undefined;
  const framing =
    len === undefined
      ? responseHeader(o.response, 'transfer-encoding')
        ? `Transfer-Encoding: ${responseHeader(o.response, 'transfer-encoding')} with zero bytes`
        : 'no Content-Length'
      : `Content-Length '${len}'`;
  return `Received an empty 401 framed with ${framing}; expected 'Content-Length: 0'`;
}

/** Whether the property sends a valid signature and expects it to authenticate (a refusal has a cause to find). */
export const expectsAuthentication = (p: ReceiverProperty) =>
  p.check === expect2xx || p.check === expectAuthenticated;

// --- the properties -----------------------------------------------------------------------

const rejectWith = (
  name: string,
  rule: string,
  arb: () => fc.Arbitrary<SignatureMutation>,
): ReceiverProperty => ({
  name,
  rule,
  provenance: 'documented',
  scope: 'each-form',
  cases: (ctx) => fc.tuple(smallBody(), arb()).map(([b, m]) => spoiled(ctx, b, m)),
  check: expect401,
});

const CONTENT_TYPES = [
  null,
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/cloudevents+json',
  'multipart/form-data; boundary=x',
];

/** Validly signed bodies of `classes`, one of each class in every run whatever its case count. */
function carelessCases(classes: readonly BodyClass[]) {
  return {
    cases: (ctx: PropertyContext) =>
      carelessBodyArb(classes).map(({ className, body }) =>
        request(ctx, { body, notes: [`body class: ${className}`] }),
      ),
    coverage: (ctx: PropertyContext) =>
      classes.map((c) =>
        c.arb().map((body) => request(ctx, { body, notes: [`body class: ${c.name}`] })),
      ),
  };
}

/** Why the hardening properties are assumed: the service never sends such a request. */
const NEVER_SENT = (what: string) =>
  `the service never sends ${what} (a delivery is JSON in UTF-8 with Content-Type: application/json); accepting it is hardening, not a documented rule`;

export const RECEIVER_PROPERTIES: readonly ReceiverProperty[] = [
  {
    name: 'valid-signature-accepted',
    rule: 'a JSON event with a valid signature in the form under test is accepted with 2xx',
    provenance: 'documented',
    scope: 'each-form',
    cases: (ctx) => jsonEventBodyArb().map((body) => request(ctx, { body })),
    check: expect2xx,
  },
  {
    name: 'non-canonical-json-authenticates',
    rule: 'JSON formatted differently from JSON.stringify (spaces, escapes, 1.0, newline) authenticates over its bytes',
    provenance: 'documented',
    scope: 'each-form',
    cases: (ctx) => nonCanonicalJsonTextArb().map((t) => request(ctx, { body: utf8(t) })),
    check: expect2xx,
  },
  {
    name: 'careless-body-authenticates',
    rule: `a validly signed JSON body in UTF-8 of every class a receiver may alter before hashing authenticates over its bytes (${SENDABLE_BODY_CLASSES.map((c) => c.name).join(', ')})`,
    provenance: 'documented',
    scope: 'each-form',
    ...carelessCases(SENDABLE_BODY_CLASSES),
    check: expectAuthenticated,
  },
  {
    name: 'careless-invalid-body-authenticates',
    rule: `a validly signed body that is not JSON in UTF-8 authenticates over its bytes (${INVALID_BODY_CLASSES.map((c) => c.name).join(', ')})`,
    provenance: 'assumed',
    why: NEVER_SENT('a byte-order mark, a raw NUL byte or invalid UTF-8'),
    scope: 'each-form',
    ...carelessCases(INVALID_BODY_CLASSES),
    check: expectAuthenticated,
  },
  {
    name: 'non-json-body-authenticates',
    rule: 'a non-JSON body (text, NUL, empty) with a valid signature authenticates',
    provenance: 'assumed',
    why: NEVER_SENT('a body that is not JSON, nor an empty one, nor text/plain'),
    scope: 'each-form',
    cases: (ctx) =>
      fc
        .oneof(textBodyArb(200), nulBodyArb(100), fc.constant(new Uint8Array(0)))
        .filter((b) => {
          try {
            JSON.parse(new TextDecoder().decode(b));
            return false;
          } catch {
            return true;
          }
        })
        .map((body) => request(ctx, { body, contentType: 'text/plain' })),
    check: expectAuthenticated,
  },
  {
    name: 'invalid-utf8-body-authenticates',
    rule: 'a body that is not valid UTF-8 with a valid signature authenticates (the HMAC is over bytes, not text)',
    provenance: 'assumed',
    why: NEVER_SENT('a body that is not valid UTF-8'),
    scope: 'each-form',
    cases: (ctx) =>
      invalidUtf8BodyArb(200).map((body) =>
        request(ctx, { body, contentType: 'application/octet-stream' }),
      ),
    check: expectAuthenticated,
  },
  {
    name: 'chunked-body-authenticates',
    rule: 'a validly signed body sent with Transfer-Encoding: chunked is accepted like one with Content-Length',
    // The docs sign the body, not its HTTP framing: any HTTP/1.1 sender may chunk it.
    provenance: 'documented',
    scope: 'each-form',
    cases: (ctx) =>
      fc
        .tuple(
          jsonEventBodyArb(),
          fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
        )
        .map(([body, chunkSizes]) => request(ctx, { body, chunkSizes })),
    check: expect2xx,
  },
  {
    name: 'content-type-variations-authenticate',
    rule: 'the Content-Type (absent, charset, case, text, binary, form) does not change whether a valid signature authenticates',
    provenance: 'assumed',
    why: NEVER_SENT('any Content-Type other than application/json, nor none'),
    scope: 'each-form',
    cases: (ctx) =>
      fc
        .tuple(jsonEventBodyArb(), fc.constantFrom(...CONTENT_TYPES))
        .map(([body, contentType]) => request(ctx, { body, contentType })),
    check: expectAuthenticated,
  },
  {
    name: 'header-name-case-insensitive',
    rule: 'the signature header name is matched without regard to case',
    // HTTP header names are case-insensitive (RFC 9110): a proxy or HTTP/2 may change the case.
    provenance: 'documented',
    scope: 'each-form',
    cases: (ctx) =>
      fc
        .tuple(jsonEventBodyArb(), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }))
        .filter(([, upper]) => upper.some((u) => u))
        .map(([body, upper]) => {
          const name = [...SIGNATURE_HEADER[ctx.form]]
            .map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase()))
            .join('');
          return request(ctx, {
            body,
            signatures: [[name, signatureValue(ctx.form, ctx.secret, body)]],
            notes: [`header name spelled '${name}'`],
          });
        }),
    check: expect2xx,
  },
  rejectWith(
    'signature-bit-flip-rejected',
    'a signature with one bit flipped (in the text or in the digest) gets 401',
    () => fc.oneof(flipBitArb(), flipDigestBitArb()),
  ),
  rejectWith('truncated-signature-rejected', 'a truncated signature gets 401', truncateArb),
  rejectWith(
    'extended-signature-rejected',
    'a signature with extra characters appended gets 401',
    extendArb,
  ),
  rejectWith(
    'uppercase-hex-rejected',
    'the valid digest in uppercase hex gets 401 (strict policy)',
    uppercaseArb,
  ),
  rejectWith(
    'prefix-mismatch-rejected',
    'a prefixed-form value without sha256=, or a plain-form value with a prefix, gets 401 (strict policy)',
    prefixMismatchArb,
  ),
  rejectWith('sha1-signature-rejected', 'an HMAC-SHA1 signature gets 401', sha1Arb),
  rejectWith(
    'wrong-secret-rejected',
    'a signature made with another secret gets 401',
    wrongSecretArb,
  ),
  rejectWith('garbage-signature-rejected', 'an arbitrary header value gets 401', garbageArb),
  {
    name: 'duplicated-header-conflict-rejected',
    rule: 'the signature header sent twice, once valid and once not, gets 401',
    provenance: 'assumed',
    why: 'the docs give one value per header; what a receiver does with two conflicting values is a policy (the strict one of core/signature/README.md), and the service sends each header once',
    scope: 'each-form',
    cases: (ctx) =>
      fc
        .tuple(smallBody(), wireSignatureMutationArb(), fc.boolean())
        .map(([b, m, spoiledFirst]) => duplicated(ctx, b, m, spoiledFirst)),
    check: expect401,
  },
  {
    name: 'bad-signature-never-5xx',
    rule: 'no bad or missing signature produces a 5xx or a dropped connection (the docs answer 401)',
    provenance: 'documented',
    scope: 'each-form',
    cases: badRequestArb,
    check: expectNo5xx,
  },
  {
    name: 'rejection-body-empty',
    rule: 'every 401 has an empty body (zero bytes, however framed)',
    provenance: 'documented',
    scope: 'each-form',
    cases: badRequestArb,
    check: expectEmptyRejection,
  },
  {
    name: 'rejection-content-length-zero',
    rule: "an empty 401 is framed with 'Content-Length: 0'",
    provenance: 'assumed',
    why: "the docs ask for an empty body, not for its framing: a chunked answer with zero bytes is empty too; 'Content-Length: 0' only tells the client sooner",
    scope: 'each-form',
    cases: badRequestArb,
    check: expectContentLengthZero,
  },
  {
    name: 'missing-signature-rejected',
    rule: 'a request without any signature header (or with it under another name) gets 401',
    provenance: 'documented',
    scope: 'once',
    cases: (ctx) =>
      fc
        .tuple(
          smallBody(),
          fc.constantFrom(
            null,
            'X-Signature',
            'Signature',
            'X-Service-Signature-256',
            'X-Hub-Signature-256',
          ),
        )
        .map(([body, name]) =>
          request(ctx, {
            body,
            signatures: name ? [[name, signatureValue(ctx.form, ctx.secret, body)]] : [],
            notes: [
              name
                ? `the valid signature under the undocumented name ${name}`
                : 'no signature header',
            ],
          }),
        ),
    check: expect401,
  },
  {
    name: 'both-forms-accepted',
    rule: 'a request carrying both headers, both valid, is accepted with 2xx',
    provenance: 'assumed',
    why: 'U15: which header form(s) a delivery carries is not shown; the reference deployment may send both at once',
    scope: 'all-forms',
    cases: (ctx) =>
      jsonEventBodyArb().map((body) =>
        request(ctx, {
          body,
          signatures: [
            [SIGNATURE_HEADER.prefixed, signatureValue('prefixed', ctx.secret, body)],
            [SIGNATURE_HEADER.plain, signatureValue('plain', ctx.secret, body)],
          ],
        }),
      ),
    check: expect2xx,
  },
  {
    name: 'conflicting-forms-rejected',
    rule: 'a request carrying both headers where one is valid and the other is not gets 401',
    provenance: 'assumed',
    why: 'the docs describe each form alone; whether one valid header may carry a contradicting other one is a policy (the strict one of core/signature/README.md)',
    scope: 'all-forms',
    cases: (ctx) =>
      fc
        .tuple(
          smallBody(),
          wireSignatureMutationArb(),
          fc.constantFrom<SignatureForm>('prefixed', 'plain'),
        )
        .map(([body, m, bad]) => {
          const req = spoiled({ ...ctx, form: bad }, body, m);
          if (!req) return null;
          req.headers.push([
            SIGNATURE_HEADER[other(bad)],
            signatureValue(other(bad), ctx.secret, body),
          ]);
          req.notes.push(`${SIGNATURE_HEADER[other(bad)]}: valid`);
          return req;
        }),
    check: expect401,
  },
];
