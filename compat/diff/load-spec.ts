import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parseSpec } from '../../core/spec/load-spec.ts';
import { bundleRefs } from './bundle-refs.ts';
import type { SpecDoc } from './types.ts';

/**
 * Reads a spec from a file, or from git when written `REF:path` (e.g. `HEAD~1:spec/openapi.yaml`),
 * so a PR job can diff against its base without checking anything out. An existing file wins
 * over the git reading of the same string. YAML and JSON both parse (JSON is YAML).
 */
export function loadSpecText(source: string, cwd = process.cwd()): string {
  if (existsSync(source)) return readFileSync(source, 'utf8');
  const m = /^([^:]+):(.+)$/.exec(source);
  if (!m) throw new Error(`cannot read '${source}': no such file (git refs are written REF:path)`);
  try {
    return execFileSync('git', ['show', `${m[1]}:${m[2]}`], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`cannot read '${source}' from git: ${stderr || String(err)}`);
  }
}

/**
 * A document `diff-spec` can compare: an `openapi: 3.x` mapping. Anything else (a YAML file that
 * happens to parse, a Swagger 2.0 file) is refused: diffing it would report every path of the
 * other side as removed or added, a report that looks real and is not.
 */
export function assertOpenApi(doc: SpecDoc, source: string): void {
  const version = (doc as Record<string, unknown>).openapi;
  if (typeof version === 'string' && /^3\.\d+(\.\d+)?/.test(version)) return;
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

/** Reads and parses a spec, refuses a non-OpenAPI one, then resolves every `$ref` (see `bundleRefs`). */
export function loadSpec(source: string, cwd?: string): SpecDoc {
  // The one spec parser (core/spec), typed for the diff.
  const read = (s: string) => parseSpec(loadSpecText(s, cwd), s) as SpecDoc;
  const doc = read(source);
  // Only the document itself: the files its `$ref`s point into are fragments, not documents.
  assertOpenApi(doc, source);
  return bundleRefs(doc, source, read, existsSync);
}
