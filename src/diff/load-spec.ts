import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parseSpec as parseDoc } from '../spec/load-spec.ts';
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

/** The spec parser of src/spec, typed for the diff. */
export const parseSpec = (text: string, source: string): SpecDoc =>
  parseDoc(text, source) as SpecDoc;

/** Reads and parses a spec, then resolves every `$ref` (see `bundleRefs`). */
export function loadSpec(source: string, cwd?: string): SpecDoc {
  const read = (s: string) => parseSpec(loadSpecText(s, cwd), s);
  return bundleRefs(read(source), source, read, existsSync);
}
