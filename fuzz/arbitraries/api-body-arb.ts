/**
 * Request bodies for an API operation, derived from its request schema: valid ones, valid ones at
 * the exact limits, and mutations that make them invalid in one way each — a required field
 * dropped, a wrong type, a value outside the enum, one code point too many, one item too many,
 * a bad email, unknown fields, deeply nested junk, non-object JSON, malformed JSON, a wrong media
 * type, a body over the 1 MiB limit. Each case says what it is (`kind`, `note`) so a
 * counterexample reads as a sentence.
 */
import fc from 'fast-check';
import {
  deref,
  type JsonSchema,
  type Resolve,
  type SchemaSite,
  schemaSites,
  sitePath,
  validValueArb,
} from './schema-arb.ts';

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

/** Options of {@link bodyCaseArb}. */
export interface BodyCaseOptions {
  /** Body size limit of the API in bytes (U26). Default 1 MiB. */
  bodyLimit?: number;
  /** Include the case of a body over the limit (allocates > 1 MiB per case). Default true. */
  overLimit?: boolean;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** `root` with `value` at `path`, creating missing containers on the way. */
export function setAt(
  root: unknown,
  path: ReadonlyArray<string | number>,
  value: unknown,
): unknown {
  if (path.length === 0) return value;
  const out = clone(root);
  let node = (out !== null && typeof out === 'object' ? out : {}) as Record<
    string | number,
    unknown
  >;
  const top = node;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      // defineProperty so that a key like `__proto__` becomes an own, serialised property.
      Object.defineProperty(node, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      break;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const child = typeof path[i + 1] === 'number' ? [] : {};
      node[key] = child;
      node = child as Record<string | number, unknown>;
    } else node = next as Record<string | number, unknown>;
  }
  return top;
}

/** `root` without the property at `path` (unchanged when absent). */
export function deleteAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  const out = clone(root);
  let node: unknown = out;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return out;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (node !== null && typeof node === 'object') {
    const last = path[path.length - 1]!;
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete (node as Record<string | number, unknown>)[last];
  }
  return out;
}

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;

/** Whether `root` holds a (non-array) object at `path`. */
function isObjectAt(root: unknown, path: ReadonlyArray<string | number>): boolean {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node);
}

/** One character repeated to an exact number of code points; astral ones count once. */
const limitUnitArb = () => fc.constantFrom('a', 'é', '😀', '中', 'ש', '"', '\\', '\u2028');

/** A value of a type other than the site's. */
function otherTypeArb(type: string | undefined) {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.constantFrom('', 'x', '0', 'true', 'null')],
    ['integer', fc.integer()],
    ['number', fc.constantFrom(1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    [
      'object',
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    ],
  ];
  const others = all.filter(([t]) => t !== type && !(type === 'number' && t === 'integer'));
  return fc.oneof(...others.map(([, a]) => a));
}

/**
 * JSON text of a value nested `depth` levels deep: arrays, objects or a mix. Built as text, not
 * as a value: a deep value overflows the stack of every recursive walker (`JSON.stringify`,
 * fast-check's reporter), which is the server's problem to survive, not the harness's.
 */
export function deepJsonText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const asArray = shape === 'array' || (shape === 'mixed' && i % 2 === 0);
    open += asArray ? '[' : '{"a":';
    close = (asArray ? ']' : '}') + close;
  }
  return `${open}"bottom"${close}`;
}

const DEEP_MARKER = '\u0000deep-junk\u0000';

const UNKNOWN_KEYS = [
  'id',
  'workspace_id',
  'created_at',
  'status',
  'internal',
  '__proto__',
  'constructor',
  'prototype',
  '',
  ' ',
  '😀',
  'x'.repeat(300),
  '$ref',
  'subject ',
];

/** All cases for a request schema. `sites` come from {@link schemaSites}. */
export function bodyCaseArb(
  schema: JsonSchema,
  resolve: Resolve,
  options: BodyCaseOptions = {},
): fc.Arbitrary<BodyCase> {
  const { bodyLimit = 1024 * 1024, overLimit = true } = options;
  const valid = validValueArb(schema, resolve);
  const sites = schemaSites(schema, resolve);
  const where = (f: (s: SchemaSite) => boolean) => sites.filter(f);
  const strings = where((s) => s.schema.type === 'string' && !s.schema.enum);
  const limited = strings.filter((s) => s.schema.maxLength !== undefined);
  const nonEmpty = strings.filter((s) => (s.schema.minLength ?? 0) > 0);
  const required = where((s) => s.required);
  const enums = where((s) => Array.isArray(s.schema.enum));
  const emails = where((s) => s.schema.format === 'email');
  const arrays = where((s) => s.schema.type === 'array' && s.schema.maxItems !== undefined);
  const declared = (o: JsonSchema) => Object.keys(deref(o, resolve).properties ?? {});
  const objects: Array<{ path: Array<string | number>; declared: string[] }> = [
    { path: [], declared: declared(schema) },
    ...where((s) => s.schema.type === 'object').map((s) => ({
      path: s.path,
      declared: declared(s.schema),
    })),
  ];

  const arbs: Array<{ arbitrary: fc.Arbitrary<BodyCase>; weight: number }> = [
    { arbitrary: valid.map((json) => ({ kind: 'valid', note: 'valid', json })), weight: 6 },
    {
      arbitrary: fc
        .record({
          json: valid,
          keys: fc.array(fc.constantFrom(...UNKNOWN_KEYS), { minLength: 1, maxLength: 3 }),
          at: fc.nat(),
          v: fc.jsonValue({ maxDepth: 2 }),
        })
        .map(({ json, keys, at, v }) => {
          // Only objects the valid body has: an absent optional object would be created
          // without its required fields, a second deviation the case does not name.
          const present = objects.filter((o) => isObjectAt(json, o.path));
          const site = pick(present.length > 0 ? present : [objects[0]!], at);
          const base = site.path;
          // A key the schema declares at this object is not unknown (TicketUpdate.status,
          // MessageCreate.internal): adding it would be a wrong value, not an extra field.
          const unknown = keys.filter((k) => !site.declared.includes(k));
          const added = unknown.length > 0 ? unknown : ['x-harness-unknown'];
          let out = json;
          for (const k of added) out = setAt(out, [...base, k], v);
          return {
            kind: 'extra-fields' as const,
            note: `unknown field(s) ${added.map((k) => JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)).join(', ')} at ${sitePath(base)}`,
            at: base,
            keys: [...new Set(added)],
            json: out,
          };
        }),
      weight: 3,
    },
    {
      arbitrary: fc
        .record({
          json: valid,
          depth: fc.integer({ min: 32, max: 5000 }),
          shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
          at: fc.nat(),
          asKnown: fc.boolean(),
        })
        .map(({ json, depth, shape, at, asKnown }) => {
          const path = asKnown && sites.length > 0 ? pick(sites, at).path : ['junk'];
          const text = JSON.stringify(setAt(json, path, DEEP_MARKER));
          return {
            kind: 'deep-junk' as const,
            note: `${shape} nested ${depth} deep at ${sitePath(path)}`,
            at: path,
            deep: { depth, shape },
            raw: text.replace(JSON.stringify(DEEP_MARKER), () => deepJsonText(depth, shape)),
          };
        }),
      weight: 2,
    },
    {
      arbitrary: fc
        .oneof(
          fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, '', 'ticket', []),
          fc.array(valid, { minLength: 1, maxLength: 2 }),
          fc
            .jsonValue({ maxDepth: 2 })
            .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
        )
        .map((json) => ({
          kind: 'non-object' as const,
          note: 'the body is JSON but not an object',
          json,
        })),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({
          json: valid,
          how: fc.constantFrom(
            'truncate',
            'trailing-comma',
            'single-quotes',
            'empty',
            'garbage',
            'bom',
            'two-documents',
            'nan',
          ),
          cut: fc.nat(),
        })
        .map(({ json, how, cut }) => {
          const text = JSON.stringify(json);
          const raw = {
            truncate: text.slice(0, Math.max(1, cut % text.length)),
            'trailing-comma': text.replace(/}$/, ',}'),
            'single-quotes': text.replace(/"/g, "'"),
            empty: '',
            garbage: 'subject=hello&requester=x',
            bom: `\uFEFF${text}`,
            'two-documents': `${text}${text}`,
            nan: text.replace(/}$/, ',"n":NaN}'),
          }[how];
          return { kind: 'malformed-json' as const, note: `malformed JSON (${how})`, raw };
        }),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({
          json: valid,
          type: fc.constantFrom<string | null>(
            null,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'APPLICATION/JSON',
            'application/json;;',
          ),
        })
        .map(({ json, type }) => ({
          kind: 'media-type' as const,
          note: type === null ? 'no Content-Type' : `Content-Type ${type}`,
          json,
          contentType: type,
        })),
      weight: 1,
    },
  ];

  if (limited.length > 0) {
    const atLength = (over: 0 | 1) =>
      fc.record({ json: valid, at: fc.nat(), unit: limitUnitArb() }).map(({ json, at, unit }) => {
        const site = pick(limited, at);
        const n = site.schema.maxLength! + over;
        // An email at the limit must still be an email: pad the local part.
        const email = site.schema.format === 'email';
        const value = email ? `${'a'.repeat(n - 12)}@example.com` : unit.repeat(n);
        return {
          kind: over ? ('too-long' as const) : ('at-limit' as const),
          note: `${sitePath(site.path)} of ${n} code points (${email ? 'a long email' : `${JSON.stringify(unit)} repeated`}; maxLength ${site.schema.maxLength})`,
          json: setAt(json, site.path, value),
        };
      });
    arbs.push({ arbitrary: atLength(0), weight: 2 }, { arbitrary: atLength(1), weight: 2 });
  }
  if (nonEmpty.length > 0)
    arbs.push({
      arbitrary: fc.record({ json: valid, at: fc.nat() }).map(({ json, at }) => {
        const site = pick(nonEmpty, at);
        return {
          kind: 'too-short' as const,
          note: `${sitePath(site.path)} empty (minLength ${site.schema.minLength})`,
          json: setAt(json, site.path, ''),
        };
      }),
      weight: 1,
    });
  if (required.length > 0)
    arbs.push({
      arbitrary: fc.record({ json: valid, at: fc.nat() }).map(({ json, at }) => {
        const site = pick(required, at);
        return {
          kind: 'drop-required' as const,
          note: `required ${sitePath(site.path)} dropped`,
          json: deleteAt(json, site.path),
        };
      }),
      weight: 3,
    });
  if (sites.length > 0)
    arbs.push({
      arbitrary: fc.record({ json: valid, at: fc.nat() }).chain(({ json, at }) => {
        const site = pick(sites, at);
        return otherTypeArb(site.schema.type).map((v) => ({
          kind: 'wrong-type' as const,
          note: `${sitePath(site.path)} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}, not ${site.schema.type}`,
          json: setAt(json, site.path, v),
        }));
      }),
      weight: 3,
    });
  if (enums.length > 0)
    arbs.push({
      arbitrary: fc
        .record({
          json: valid,
          at: fc.nat(),
          v: fc.constantFrom(
            'urgent',
            'LOW',
            ' normal',
            'high ',
            '',
            'null',
            'clos\u0065\u0301d',
            'ОPEN',
          ),
        })
        .filter(({ at, v }) => !pick(enums, at).schema.enum!.includes(v))
        .map(({ json, at, v }) => {
          const site = pick(enums, at);
          return {
            kind: 'out-of-enum' as const,
            note: `${sitePath(site.path)} = ${JSON.stringify(v)}, not one of ${site.schema.enum!.join(', ')}`,
            json: setAt(json, site.path, v),
          };
        }),
      weight: 2,
    });
  if (emails.length > 0)
    arbs.push({
      arbitrary: fc
        .record({
          json: valid,
          at: fc.nat(),
          v: fc.constantFrom(
            'not-an-email',
            'a@',
            '@example.com',
            'a@@example.com',
            ' a@example.com',
            'a@example.com\n',
            'a b@example.com',
            `${'a'.repeat(250)}@example.com`,
            '<script>@x.io',
          ),
        })
        .map(({ json, at, v }) => {
          const site = pick(emails, at);
          return {
            kind: 'bad-format' as const,
            note: `${sitePath(site.path)} = ${JSON.stringify(v.length > 40 ? `${v.slice(0, 20)}…` : v)} is not an email`,
            json: setAt(json, site.path, v),
          };
        }),
      weight: 2,
    });
  if (arrays.length > 0)
    arbs.push({
      arbitrary: fc
        .record({ json: valid, at: fc.nat(), over: fc.constantFrom(0, 1) })
        .chain(({ json, at, over }) => {
          const site = pick(arrays, at);
          const n = site.schema.maxItems! + over;
          return fc
            .array(validValueArb(site.schema.items ?? {}, resolve), { minLength: 1, maxLength: 3 })
            .map((seed) => ({
              kind: over ? ('too-many-items' as const) : ('at-limit' as const),
              note: `${sitePath(site.path)} with ${n} items (maxItems ${site.schema.maxItems})`,
              json: setAt(
                json,
                site.path,
                Array.from({ length: n }, (_, i) =>
                  typeof seed[0] === 'string'
                    ? `${seed[i % seed.length]}${i}`.slice(-64)
                    : seed[i % seed.length],
                ),
              ),
            }));
        }),
      weight: 2,
    });
  if (overLimit && strings.length > 0)
    arbs.push({
      arbitrary: fc
        .record({ json: valid, at: fc.nat(), extra: fc.integer({ min: 1, max: 4096 }) })
        .map(({ json, at, extra }) => {
          const site = pick(strings, at);
          return {
            kind: 'over-body-limit' as const,
            note: `${sitePath(site.path)} of ${bodyLimit + extra} bytes: the body exceeds the ${bodyLimit}-byte limit`,
            json: setAt(json, site.path, 'a'.repeat(bodyLimit + extra)),
          };
        }),
      weight: 1,
    });
  return fc.oneof(...arbs);
}

/** The bytes and Content-Type a case is sent with, given the operation's media type. */
export function encodeBodyCase(
  c: BodyCase,
  mediaType: string,
): { body: string; contentType: string | null } {
  const body = c.raw ?? (c.json === undefined ? '' : JSON.stringify(c.json));
  return { body, contentType: c.contentType === undefined ? mediaType : c.contentType };
}
