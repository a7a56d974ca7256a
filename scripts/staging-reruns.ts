/**
 * `npm run test:staging`: a long-lived staging, end to end — three `harness run --skip load` back to
 * back with a Team key against one lax, long-lived reference deployment (`harness serve --reading U26=no-limits,U6=ignore-wrong-types
 * --seed-tickets 3000`), every part its own process (test/harness/staging-reruns.ts). Prints each
 * run (verdict, time, requests, what was read and left) and exits 1 when a run is not a clean
 * PASS. About 7 minutes: a run sends ~650 requests and the Team bucket refills 2/s. CI runs a
 * smaller one (test/harness/staging-reruns.test.ts).
 *
 * `--unpaginated`: the same deployment's lists ignore limit and cursor (reading U4=unpaginated)
 * and one endpoint takes every event. Each list read is then the whole workspace, every ticket
 * earlier runs left in it included: the bytes a run reads must not grow run over run — the last
 * run at most 1.2× the first (`--runs growth*10`: ten runs on one workspace). A run leaves ~85
 * closed tickets (Growth key; ~46 with Team) and reads the list whole about six times, so each
 * run reads ~230 kB more than the one before: within 1.2× after ten runs where the first reads
 * 10 MB or more — 1.07× on the 3 000 tickets a workspace holds here, 1.20× on 1 000, 1.35× on 300.
 *
 *   npm run test:staging [-- --runs team,team,team] [--seed-tickets 3000]
 *   npm run test:staging -- --unpaginated --runs 'growth*10'
 */
import { parseArgs } from 'node:util';
import { stopAll } from '../test/harness/gate-processes.ts';
import { problemsOf, readGrowth, runLine, stagingReruns } from '../test/harness/staging-reruns.ts';

/** The tenth run of a lax deployment whose lists ignore limit reads at most this times the first. */
const GROWTH_BOUND = 1.2;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: 'team,team,team' },
    'seed-tickets': { type: 'string', default: '3000' },
    unpaginated: { type: 'boolean', default: false },
  },
});
// `growth*10` is ten runs with the Growth key.
const runs = values.runs.split(',').flatMap((p) => {
  const [plan = '', times = '1'] = p.trim().split('*');
  return Array.from({ length: Number(times) }, () => plan);
});
if (runs.length === 0 || runs.some((p) => p !== 'team' && p !== 'growth')) {
  console.error(`--runs takes team and growth (or plan*N), comma-separated: got '${values.runs}'`);
  process.exit(2);
}
const seedTickets = Number(values['seed-tickets']);
const unpaginated = values.unpaginated;
const t0 = Date.now();
try {
  const result = await stagingReruns({
    seedTickets,
    runs: runs as Array<'team' | 'growth'>,
    runLimitMs: 15 * 60_000,
    ...(unpaginated ? { readings: ['U4=unpaginated'], everyEvent: true } : {}),
    onRun: (r) => console.log(runLine(r)),
  });
  console.log(`deployment: ${result.serveCommand}`);
  const problems = result.runs.flatMap((r) => problemsOf(r, unpaginated ? null : undefined));
  if (unpaginated) {
    const growth = readGrowth(result.runs);
    console.log(
      `bytes read over the first run's: ${growth.map((g, i) => `run ${i + 1} ${g.toFixed(3)}×`).join(', ')}`,
    );
    const last = growth.at(-1)!;
    if (!(last <= GROWTH_BOUND))
      problems.push(
        `run ${growth.length} read ${last.toFixed(3)}× the first's bytes (at most ${GROWTH_BOUND}×)`,
      );
  }
  console.log(
    `${result.runs.length} runs in ${Math.round((Date.now() - t0) / 1000)} s: ${problems.length ? `${problems.length} problem(s)` : 'all PASS, reads bounded, nothing left open'}`,
  );
  for (const p of problems) console.log(p);
  process.exitCode = problems.length ? 1 : 0;
} finally {
  await stopAll();
}
