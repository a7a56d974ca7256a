/**
 * Query strings for an operation's query parameters (the list's `limit`, `cursor`, `status`,
 * `priority`), derived from their schemas: valid values, numbers at the edges of their type,
 * text of every class in the free-text parameters, near-misses of the enums. Each case says what
 * it is; `query.values` keeps what was meant (a lone surrogate stays one), `query.raw` is what is
 * sent, percent-encoded — a lone surrogate as the bytes a careless encoder writes (WTF-8).
 */
import fc from 'fast-check';
import type { BodyCase } from './body-cases/body-case.ts';
import { TEXT_SAMPLES } from '../../core/typed-text.ts';
import { hostileTextArb } from './hostile-text-arb.ts';
import { numberClass } from './input-classes.ts';
import type { JsonSchema } from './schema-arb.ts';

/** A query parameter of the spec, its schema resolved. */
export interface QueryParam {
  name: string;
  schema: JsonSchema;
}

/** Percent-encodes `text` as UTF-8; a lone surrogate as its 3-byte (WTF-8) form. */
export function percentEncode(text: string): string {
  let out = '';
  for (const c of text) {
    const u = c.codePointAt(0)!;
    if (u >= 0xd800 && u <= 0xdfff)
      out += [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    else out += encodeURIComponent(c);
  }
  return out;
}

/** The number edges sent to an integer parameter with bounds: one or more per number class. */
export function integerEdges(min: number, max: number): string[] {
  return [
    String(min),
    String(max),
    String(min - 1),
    String(max + 1),
    '2147483648',
    '9007199254740993',
    '1e309',
    '-0',
    '1.5',
    '',
    'NaN',
  ];
}

const integerBounds = (s: JsonSchema) =>
  s.type === 'integer' && s.minimum !== undefined && s.maximum !== undefined
    ? { min: s.minimum, max: s.maximum }
    : undefined;

/** Why `values` break the parameters' schemas, or undefined when they are valid. */
export function queryProblem(
  params: readonly QueryParam[],
  values: Readonly<Record<string, string>>,
): string | undefined {
  for (const [name, v] of Object.entries(values)) {
    const p = params.find((x) => x.name === name);
    if (!p) return `${name} is not a parameter of the operation`;
    const s = p.schema;
    if (s.enum && !s.enum.includes(v)) return `${name} is not one of ${s.enum.join(', ')}`;
    if (s.type === 'integer') {
      if (!/^-?\d+$/.test(v)) return `${name} is not an integer`;
      const n = Number(v);
      if (s.minimum !== undefined && n < s.minimum) return `${name} is below ${s.minimum}`;
      if (s.maximum !== undefined && n > s.maximum) return `${name} is above ${s.maximum}`;
    }
    if (s.type === 'string') {
      const n = [...v].length;
      if (s.minLength !== undefined && n < s.minLength)
        return `${name} is shorter than ${s.minLength}`;
      if (s.maxLength !== undefined && n > s.maxLength)
        return `${name} is longer than ${s.maxLength}`;
    }
  }
  return undefined;
}

/** A query case of `values`. */
export function queryCase(values: Record<string, string>, what?: string): BodyCase {
  const raw = Object.entries(values)
    .map(([k, v]) => `${encodeURIComponent(k)}=${percentEncode(v)}`)
    .join('&');
  const shown = raw.length > 120 ? `${raw.slice(0, 120)}…` : raw;
  return {
    kind: 'query',
    note: what ? `${what}: ?${shown}` : `?${shown || '(no parameters)'}`,
    query: { raw, values },
  };
}

/**
 * The query class sampler: each number edge in each bounded integer parameter, each text sample
 * in the first free-text parameter. A fixed list, sent before the random cases.
 */
export function querySampler(params: readonly QueryParam[]): BodyCase[] {
  const out: BodyCase[] = [];
  for (const p of params) {
    const b = integerBounds(p.schema);
    if (b)
      for (const v of integerEdges(b.min, b.max))
        out.push(queryCase({ [p.name]: v }, `class sampler: ${p.name} at an edge`));
  }
  const text = params.find((p) => p.schema.type === 'string' && !p.schema.enum);
  if (text)
    for (const { note, text: sample } of TEXT_SAMPLES)
      out.push(queryCase({ [text.name]: sample }, `class sampler: ${note} in ${text.name}`));
  return out;
}

/**
 * The query class sampler packed for the gate-sized fuzz (packed-sampler.ts for bodies): one edge
 * per number class (a query holds one value per parameter), and every text sample at once in the
 * free-text parameter of the first query whose number is valid — an invalid number would mask the
 * text. Each packed query keeps its one-class queries (`parts`), sent one by one when it fails.
 */
export function packedQuerySampler(params: readonly QueryParam[]): BodyCase[] {
  const out: BodyCase[] = [];
  const text = params.find((p) => p.schema.type === 'string' && !p.schema.enum);
  let textLeft = text !== undefined;
  const withText = (values: Record<string, string>, parts: BodyCase[], what: string) => {
    if (!text || !textLeft) return parts.length === 1 ? parts[0]! : queryCase(values, what);
    textLeft = false;
    const joined = TEXT_SAMPLES.map((s) => s.text).join(' ');
    const all = [
      ...parts,
      ...TEXT_SAMPLES.map((s) =>
        queryCase({ [text.name]: s.text }, `class sampler: ${s.note} in ${text.name}`),
      ),
    ];
    return {
      ...queryCase(
        { ...values, [text.name]: joined },
        `class sampler, packed (${all.length} inputs): ${what}; every text sample in ${text.name}`,
      ),
      parts: all,
    };
  };
  for (const p of params) {
    const b = integerBounds(p.schema);
    if (!b) continue;
    const seen = new Set<string>();
    for (const v of integerEdges(b.min, b.max)) {
      const cls = numberClass(v, b);
      if (seen.has(cls)) continue;
      seen.add(cls);
      const what = `class sampler: ${p.name} at an edge`;
      const valid = queryProblem(params, { [p.name]: v }) === undefined;
      const single = queryCase({ [p.name]: v }, what);
      out.push(valid ? withText({ [p.name]: v }, [single], `${p.name}=${v}`) : single);
    }
  }
  if (text && textLeft) out.push(withText({}, [], 'no other parameter'));
  return out;
}

/** A value for one parameter: valid, an edge, hostile text, an enum's near miss. */
function paramValueArb(p: QueryParam): fc.Arbitrary<string> {
  const s = p.schema;
  const b = integerBounds(s);
  const options: fc.Arbitrary<string>[] = [hostileTextArb({ minLength: 0, maxLength: 20 })];
  if (s.enum)
    options.push(
      fc.constantFrom(...s.enum.map(String)),
      fc.constantFrom(...s.enum.map((e) => String(e).toUpperCase()), ' open', 'urgent', ''),
    );
  if (b)
    options.push(
      fc.integer({ min: b.min, max: b.max }).map(String),
      fc.constantFrom(...integerEdges(b.min, b.max)),
      fc.integer().map(String),
      fc.double({ noNaN: false }).map(String),
    );
  return fc.oneof(...options);
}

/** Random query cases over `params`: each parameter present or not, with a value of any kind. */
export function queryCaseArb(params: readonly QueryParam[]): fc.Arbitrary<BodyCase> {
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params) record[p.name] = paramValueArb(p);
  return fc
    .record(record, { requiredKeys: [] })
    .map((values) => queryCase(values as Record<string, string>));
}
