/**
 * A small valid instance of a component schema of the spec: what the rule matrix sends as the body
 * of a write it expects to be refused. It must be valid — a deployment that validates before it
 * authenticates (or checks scope or workspace) would otherwise answer 422 and a route without the
 * guard would pass — and it is built from the spec alone, so an operation added to the spec gets
 * a body without new test code. Required properties only (plus the first one of an object that
 * requires none but must not be empty: a merge patch), `example`/`default`/`enum`/`const` first,
 * formats the spec uses (email, date-time, uri), lengths and bounds respected. `fill` overrides a
 * string property by name (run-tagged subjects, real ids of the fixtures).
 */
import type { OpenApiDoc } from './load-spec.ts';

export type SampleFill = (name: string, schema: any) => unknown;

const MAX_DEPTH = 8;

function resolve(doc: OpenApiDoc, node: any): any {
  let n = node;
  for (let i = 0; i < 10 && n && typeof n.$ref === 'string'; i++) {
    const ref: string = n.$ref;
    if (!ref.startsWith('#/')) return undefined;
    n = ref
      .slice(2)
      .split('/')
      .reduce((acc: any, k: string) => acc?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return n;
}

function stringOf(s: any): string {
  switch (s.format) {
    case 'email':
      return 'rule-matrix@example.com';
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'uri':
    case 'url':
      return 'https://example.com/';
  }
  const min = typeof s.minLength === 'number' ? s.minLength : 1;
  const max = typeof s.maxLength === 'number' ? s.maxLength : 64;
  const text = 'rule matrix';
  return text.length >= min ? text.slice(0, max) : text.padEnd(min, 'x');
}

function sample(doc: OpenApiDoc, node: any, name: string, fill: SampleFill, depth: number): any {
  const s = resolve(doc, node);
  if (!s || typeof s !== 'object' || depth > MAX_DEPTH) return undefined;
  const filled = fill(name, s);
  if (filled !== undefined) return filled;
  if ('const' in s) return s.const;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const alt = s.allOf?.[0] ?? s.oneOf?.[0] ?? s.anyOf?.[0];
  if (alt && !s.type && !s.properties) return sample(doc, alt, name, fill, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const props: Record<string, any> = s.properties ?? {};
      const required: string[] = Array.isArray(s.required) ? s.required : [];
      const names =
        required.length > 0 || !(s.minProperties > 0)
          ? required
          : Object.keys(props).slice(0, s.minProperties);
      const out: Record<string, unknown> = {};
      for (const k of names) out[k] = sample(doc, props[k] ?? {}, k, fill, depth + 1);
      return out;
    }
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: n }, () => sample(doc, s.items ?? {}, name, fill, depth + 1));
    }
    case 'string':
      return stringOf(s);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.maximum === 'number'
          ? Math.min(0, s.maximum)
          : 1;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** A small valid instance of `components.schemas[name]` (validate it: a pattern is not honoured). */
export function sampleBody(
  doc: OpenApiDoc,
  name: string,
  fill: SampleFill = () => undefined,
): unknown {
  return sample(doc, { $ref: `#/components/schemas/${name}` }, '', fill, 0);
}
