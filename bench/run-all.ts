/**
 * `npm run bench`: runs every `bench/*.ts` (except this file and declaration files) one after
 * another, each in its own process so one bench's servers and timers cannot skew the next.
 *
 *   npm run bench                                   every bench, alphabetically
 *   npm run bench -- api-throughput                 only the named ones (file name without .ts)
 *   npm run bench -- api-throughput --duration 3    flags go to the bench (one bench only)
 *
 * Exit status: 0 when every bench exited 0.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const self = basename(fileURLToPath(import.meta.url));

const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== self)
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('-'));
const names = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);

const unknown = names.filter((n) => !available.includes(n.replace(/\.ts$/, '')));
if (unknown.length) {
  process.stderr.write(
    `unknown bench ${unknown.map((n) => `'${n}'`).join(', ')}; available: ${available.join(', ')}\n`,
  );
  process.exit(2);
}
const selected = names.length ? names.map((n) => n.replace(/\.ts$/, '')) : available;
if (flags.length && selected.length !== 1) {
  process.stderr.write('flags can only be passed when exactly one bench is named\n');
  process.exit(2);
}

function runOne(name: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`), ...flags], {
      stdio: 'inherit',
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

const results: Array<{ name: string; code: number; seconds: number }> = [];
for (const name of selected) {
  process.stdout.write(`\n=== bench/${name}.ts ===\n`);
  const t0 = performance.now();
  const code = await runOne(name);
  results.push({ name, code, seconds: (performance.now() - t0) / 1000 });
}

if (results.length > 1) {
  const w = Math.max(...results.map((r) => r.name.length));
  process.stdout.write('\n=== summary ===\n');
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(w)}  ${r.seconds.toFixed(1).padStart(6)} s  ${r.code === 0 ? 'ok' : `exit ${r.code}`}\n`,
    );
  }
}
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
