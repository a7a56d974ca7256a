// @ts-check
/**
 * Mutation testing of the reference deployment (server/): how strong is the gate on faults
 * nobody listed? Each mutant of the code that implements documented rules — the routes, the auth
 * guard, rate limiting, webhook dispatch and signing — is killed when the gate does not pass
 * against the embedded deployment built from the mutated sandbox (scripts/mutation/gate.ts:
 * `harness run --skip load`, then the load area at five times the clock). Run by
 * `npm run mutation` (scripts/mutation/run.ts), one Stryker run per file; never in CI.
 *
 * Not mutated: server/rate-limit/fixed-window.ts and sliding-log.ts, the limiters of two
 * readings (`U24=fixed-window`, `U24=sliding-window`) that never run without them;
 * server/rate-limit/types.ts and server/webhooks/types.ts hold types only.
 *
 * One incremental file (docs/mutation/stryker-incremental.json, committed): a run reuses every
 * result whose code did not change and keeps the results of the files it did not mutate. A change
 * to the gate is invisible to it (the command runner knows no test files): after one, rerun with
 * `--force` to measure the new gate.
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  $schema: '../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  testRunner: 'command',
  commandRunner: { command: 'node --import tsx scripts/mutation/gate.ts' },
  // The command runner has no coverage: every mutant runs the whole gate.
  coverageAnalysis: 'off',
  mutate: [
    'server/guard.ts',
    'server/rate-limit-answer.ts',
    'server/rate-limit/token-bucket.ts',
    'server/routes/**/*.ts',
    'server/webhooks/**/*.ts',
    '!server/webhooks/types.ts',
  ],
  // Mutants that do not type-check never reach a deployment (CI runs tsc): not run, not scored.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  appendPlugins: ['./scripts/mutation/fault-switch-ignorer.mjs'],
  ignorers: ['fault-switches'],
  // The gate runs two Playwright workers itself; on a shared 2-core machine one mutant at a time.
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  incremental: true,
  incrementalFile: 'docs/mutation/stryker-incremental.json',
  // Copy what the gate reads (reports/baselines: the behaviour baseline), not old run reports.
  ignorePatterns: ['/reports/*', '!/reports/baselines', '/.stryker-tmp', '/test-results'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // A gate run takes ≈ 20 s idle and two minutes on a busy machine; the gate's own limit
  // (MUTATION_GATE_MAX_SECONDS, 240 s a try) ends a slow run with a verdict first.
  timeoutFactor: 2,
  timeoutMS: 600_000,
  dryRunTimeoutMinutes: 15,
  thresholds: { high: 90, low: 75, break: null },
};
export default config;
