/**
 * Time against size of every pass over a target's answer (bench/lib/target-data-passes.ts), as a
 * ratio to a plain JSON.parse of the same bytes measured beside it in the same run: list pages
 * whose ticket carries a one-word subject from 1 KiB to 10 MiB, a 10 MiB list of alike tickets,
 * an array nested 10 000 deep. Linear passes keep a flat ratio as the size grows (a quadratic one
 * grows it tenfold per tenfold size); the last table says how each pass's time grew from 1 MiB to
 * 10 MiB. Prints numbers, asserts nothing. Run: npm run bench -- target-data [--reps N]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type Answer,
  bigList,
  deepArray,
  KiB,
  MiB,
  PASSES,
  wordSubjectList,
} from './lib/target-data-passes.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' } } });
const reps = Math.max(1, Number(values.reps) || 5);

/** Median milliseconds of `fn` over `reps` runs (one warm-up run first). */
function median(fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const fmtSize = (n: number) =>
  n >= MiB ? `${(n / MiB).toFixed(n % MiB ? 1 : 0)} MiB` : `${(n / KiB).toFixed(0)} KiB`;
const ms = (t: number) => (t < 10 ? t.toFixed(2) : t.toFixed(0)).padStart(7);

process.stdout.write(
  `target-data: ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; median of ${reps} runs\n`,
);

const answers: Answer[] = [
  ...[KiB, 16 * KiB, 256 * KiB, MiB, 10 * MiB].map(wordSubjectList),
  bigList(10 * MiB),
  deepArray(10_000),
];

/** ms per pass per answer, for the growth table. */
const timing = new Map<string, Map<string, number>>();
const width = Math.max(...PASSES.map((p) => p.name.length));

for (const a of answers) {
  const parse = median(() => JSON.parse(a.bodyText));
  process.stdout.write(`\n${a.name} (${fmtSize(a.bodyText.length)}): JSON.parse ${ms(parse)} ms\n`);
  process.stdout.write(`  ${'pass'.padEnd(width)}       ms   × JSON.parse\n`);
  const row = new Map<string, number>([['JSON.parse', parse]]);
  for (const p of PASSES) {
    const t = median(() => p.run(a));
    row.set(p.name, t);
    process.stdout.write(
      `  ${p.name.padEnd(width)} ${ms(t)}   ${(t / Math.max(parse, 1e-3)).toFixed(2).padStart(8)}\n`,
    );
  }
  timing.set(a.name, row);
}

const one = timing.get(wordSubjectList(MiB).name)!;
const ten = timing.get(wordSubjectList(10 * MiB).name)!;
const growth = (name: string) =>
  ((ten.get(name) ?? 0) / Math.max(one.get(name) ?? 0, 1e-3)).toFixed(1).padStart(7);
process.stdout.write(
  '\ngrowth from a 1 MiB to a 10 MiB one-word subject, beside JSON.parse of the same bytes (linear: about as JSON.parse grows, or less where a pass reads a bounded part; quadratic: ten times more):\n',
);
for (const name of ['JSON.parse', ...PASSES.map((p) => p.name)])
  process.stdout.write(`  ${name.padEnd(width)} ${growth(name)}\n`);
