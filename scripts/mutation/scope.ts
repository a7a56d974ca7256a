/**
 * The files of the mutation scope (what stryker.config.mjs's `mutate` globs name) and the files
 * of server/ left out, each with its reason (its `notMutated`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './results.ts';
import config, { notMutated } from './stryker.config.mjs';

/** Reads only the glob forms the config uses: `dir/**\/*.ts`, plain paths, and `!` to take out. */
export function scopeFiles(
  patterns: readonly string[] = (config.mutate ?? []) as string[],
  root = ROOT,
): string[] {
  const files = new Set<string>();
  for (const p of patterns) {
    const neg = p.startsWith('!');
    const pat = neg ? p.slice(1) : p;
    const m = /^(.*)\/\*\*\/\*\.ts$/.exec(pat);
    const hits = m ? tsFiles(m[1]!, root) : [pat];
    for (const f of hits) neg ? files.delete(f) : files.add(f);
  }
  return [...files].sort();
}

/** Every .ts file under `dir` (repository-relative). */
export function tsFiles(dir: string, root = ROOT): string[] {
  return (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`)
    .sort();
}

/** Why a file is not mutated, from `notMutated` (a key ending in `/` covers its folder). */
export function whyNotMutated(
  file: string,
  reasons: Readonly<Record<string, string>> = notMutated,
): string | undefined {
  if (reasons[file]) return reasons[file];
  const dir = Object.keys(reasons).find((k) => k.endsWith('/') && file.startsWith(k));
  return dir ? reasons[dir] : undefined;
}

export { notMutated };
