// A plain-JS build of one CLI command, cached under node_modules/.cache/harness and rebuilt with
// esbuild (already installed for tsx) when any source file it was built from changed (by
// size and mtime). Returns undefined whenever that cannot be done — no esbuild, read-only
// node_modules — and the caller falls back to tsx: slower, never wrong.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'node_modules', '.cache', 'harness');

function stamp(file) {
  const s = statSync(join(root, file));
  return `${s.size}:${s.mtimeMs}`;
}

function fresh(manifestFile) {
  try {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const [file, st] of Object.entries(m.inputs)) if (stamp(file) !== st) return false;
    return true;
  } catch {
    return false;
  }
}

export async function loadCompiled(name, entry) {
  const out = join(cache, `${name}.mjs`);
  const manifest = join(cache, `${name}.json`);
  try {
    if (!fresh(manifest)) {
      const { build } = await import('esbuild');
      mkdirSync(cache, { recursive: true });
      const tmp = `${out}.${process.pid}.tmp.mjs`;
      const r = await build({
        absWorkingDir: root,
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        outfile: tmp,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = {};
      for (const file of Object.keys(r.metafile.inputs)) inputs[file] = stamp(file);
      // Rename last so a concurrent run never imports a half-written file.
      renameSync(tmp, out);
      writeFileSync(manifest, JSON.stringify({ entry, inputs }));
    }
    return await import(pathToFileURL(out).href);
  } catch (err) {
    if (process.env.HARNESS_DEBUG) process.stderr.write(`precompile skipped: ${err}\n`);
    return undefined;
  }
}
