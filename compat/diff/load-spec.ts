import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseSpec } from '../../core/spec/load-spec.ts';
import { bundleRefs } from './bundle-refs.ts';
import type { SpecDoc } from './types.ts';

/**
 * Reads a spec from a file, or from git when written `REF:path` (e.g. `HEAD~1:spec/openapi.yaml`),
 * so a PR job can diff against its base without checking anything out. An existing file wins
 * over the git reading of the same string. YAML and JSON both parse (JSON is YAML).
 */
export function loadSpecText(source: string, cwd = process.cwd()): string {
  if (existsSync(source)) {
    if (statSync(source).isDirectory())
      throw new Error(`'${source}' is a directory, not a spec file`);
    return asText(readFileSync(source), source);
  }
  const m = /^([^:]+):(.+)$/.exec(source);
  if (!m) throw new Error(`cannot read '${source}': no such file (git refs are written REF:path)`);
  try {
    const out = execFileSync('git', ['show', `${m[1]}:${m[2]}`], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return asText(out, source);
  } catch (err) {
    if ((err as { binary?: boolean }).binary) throw err;
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`cannot read '${source}' from git: ${stderr || String(err)}`);
  }
}

/**
 * The bytes of a spec as text. A NUL byte or bytes that are not UTF-8 mean a binary file (an
 * image, an archive, a compiled program): refused in one line rather than parsed into an error
 * that quotes its bytes.
 */
function asText(bytes: Buffer, source: string): string {
  const head = bytes.subarray(0, 8192);
  let text: string | undefined;
  if (!head.includes(0)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = undefined;
    }
  }
  if (text === undefined)
    throw Object.assign(
      new Error(`'${source}' is not a text file (binary content): not an OpenAPI document`),
      { binary: true },
    );
  return text;
}

/** A member that, when present, must be a mapping: what it is instead, for the error. */
const kindOf = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'object'
        ? 'a mapping'
        : `a ${typeof v}`;

/**
 * A document `diff-spec` can compare: an `openapi: 3.x` mapping. Anything else (a YAML file that
 * happens to parse, a Swagger 2.0 file) is refused: diffing it would report every path of the
 * other side as removed or added, a report that looks real and is not.
 */
export function assertOpenApi(doc: SpecDoc, source: string): void {
  const version = (doc as Record<string, unknown>).openapi;
  if (typeof version === 'string' && /^3\.\d+(\.\d+)?/.test(version)) {
    assertShape(doc as Record<string, unknown>, version, source);
    return;
  }
  const swagger = (doc as Record<string, unknown>).swagger;
  if (swagger !== undefined)
    throw new Error(
      `'${source}' is Swagger ${String(swagger)}, not OpenAPI 3.x: convert it first (e.g. with swagger2openapi)`,
    );
  const keys = Object.keys(doc).slice(0, 5);
  throw new Error(
    version === undefined
      ? `'${source}' is not an OpenAPI document: no \`openapi\` version field (top-level keys: ${keys.join(', ') || 'none'})`
      : `'${source}' is not an OpenAPI 3.x document: \`openapi\` is ${JSON.stringify(version)}`,
  );
}

/**
 * The members a diff walks have the right type, and the version's required ones are there:
 * OpenAPI 3.0 requires `paths`; 3.1 requires one of `paths`, `components`, `webhooks`. A
 * document without them would diff as "every path removed", a report that looks real.
 */
function assertShape(doc: Record<string, unknown>, version: string, source: string): void {
  for (const key of ['paths', 'webhooks', 'components'] as const) {
    const v = doc[key];
    if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v)))
      throw new Error(
        `'${source}' is not a valid OpenAPI ${version} document: \`${key}\` must be a mapping, is ${kindOf(v)}`,
      );
  }
  if (version.startsWith('3.0.') || version === '3.0') {
    if (doc.paths === undefined)
      throw new Error(
        `'${source}' is not a valid OpenAPI ${version} document: it has no \`paths\` (required in 3.0)`,
      );
  } else if (doc.paths === undefined && doc.webhooks === undefined && doc.components === undefined)
    throw new Error(
      `'${source}' is not a valid OpenAPI ${version} document: it has none of \`paths\`, \`webhooks\`, \`components\` (3.1 requires one)`,
    );
}

/** Reads and parses a spec, refuses a non-OpenAPI one, then resolves every `$ref` (see `bundleRefs`). */
export function loadSpec(source: string, cwd?: string): SpecDoc {
  // The one spec parser (core/spec), typed for the diff.
  // One line: a YAML error quotes the lines around it, which a CI log does not need.
  const read = (s: string) => {
    const text = loadSpecText(s, cwd);
    try {
      return parseSpec(text, s) as SpecDoc;
    } catch (e) {
      throw new Error((e as Error).message.split('\n')[0]!.trim());
    }
  };
  const doc = read(source);
  // Only the document itself: the files its `$ref`s point into are fragments, not documents.
  assertOpenApi(doc, source);
  return bundleRefs(doc, source, read, existsSync);
}
