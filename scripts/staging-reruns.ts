/**
 * `npm run test:staging`: the full scenario of issue 23 — three `harness run --skip load` back to
 * back with a Team key against one lax, long-lived reference deployment (`harness serve --reading U26=no-limits,U6=ignore-wrong-types
 * --seed-tickets 3000`), every part its own process (test/harness/staging-reruns.ts). Prints each
 * run (verdict, time, requests, what was read and left) and exits 1 when a run is not a clean
 * PASS. About 7 minutes: a run sends ~650 requests and the Team bucket refills 2/s. CI runs a
 * smaller one (test/harness/staging-reruns.test.ts).
 *
 *   npm run test:staging [-- --runs team,team,team] [--seed-tickets 3000]
 */
import { parseArgs } from 'node:util';
import { stopAll } from '../test/harness/gate-processes.ts';
import { problemsOf, runLine, stagingReruns } from '../test/harness/staging-reruns.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: 'team,team,team' },
    'seed-tickets': { type: 'string', default: '3000' },
  },
});
const runs = values.runs.split(',').map((p) => p.trim());
if (runs.some((p) => p !== 'team' && p !== 'growth')) {
  console.error(`--runs takes team and growth, comma-separated: got '${values.runs}'`);
  process.exit(2);
}
const seedTickets = Number(values['seed-tickets']);
const t0 = Date.now();
try {
  const result = await stagingReruns({
    seedTickets,
    runs: runs as Array<'team' | 'growth'>,
    runLimitMs: 15 * 60_000,
    onRun: (r) => console.log(runLine(r)),
  });
  console.log(`deployment: ${result.serveCommand}`);
  const problems = result.runs.flatMap(problemsOf);
  console.log(
    `${result.runs.length} runs in ${Math.round((Date.now() - t0) / 1000)} s: ${problems.length ? `${problems.length} problem(s)` : 'all PASS, reads bounded, nothing left open'}`,
  );
  for (const p of problems) console.log(p);
  process.exitCode = problems.length ? 1 : 0;
} finally {
  await stopAll();
}
