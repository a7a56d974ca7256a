/** The files of the mutation scope: what stryker.config.mjs's `mutate` globs name. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './results.ts';
import config from './stryker.config.mjs';

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
    const hits = m
      ? (readdirSync(join(root, m[1]!), { recursive: true }) as string[])
          .filter((f) => f.endsWith('.ts'))
          .map((f) => `${m[1]}/${f}`)
      : [pat];
    for (const f of hits) neg ? files.delete(f) : files.add(f);
  }
  return [...files].sort();
}
