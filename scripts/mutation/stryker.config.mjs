// @ts-check
/**
 * Mutation testing of the reference deployment (server/): how strong is the gate on faults
 * nobody listed? Each mutant of the code that implements documented rules is killed when the
 * gate does not pass against the embedded deployment built from the mutated sandbox
 * (scripts/mutation/gate.ts: `harness run --skip load`, then, for the files that feed the rate
 * limiter, the load area at five times the clock). Run by `npm run mutation`
 * (scripts/mutation/run.ts), one Stryker run per file; never in CI.
 *
 * The scope is every file of server/ that implements a documented rule (`mutate`); every other
 * file of server/ is in `notMutated` with its reason (test/repo/mutation-triage.test.ts holds the
 * two to every file of server/).
 *
 * One incremental file (docs/mutation/stryker-incremental.json, committed): a run reuses every
 * result whose code did not change. A change to the gate is invisible to it (the command runner
 * knows no test files): `npm run mutation -- --all` measures every file again, each against the
 * same gate.
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  $schema: '../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  testRunner: 'command',
  commandRunner: { command: 'node --import tsx scripts/mutation/gate.ts' },
  // The command runner has no coverage: every mutant runs the whole gate.
  coverageAnalysis: 'off',
  mutate: [
    // "All API traffic is JSON" (the media types it parses), the answer to a malformed request or
    // an unknown route, and the timer of the SLA sweep (sla.at_risk "as the event happens").
    'server/app.ts',
    // The one clock of the rate limits ("requests per minute"), Date and the SLA clock.
    'server/clock.ts',
    // The webhook payload envelope (event, ticket, customer) and which actions fire which event.
    'server/events.ts',
    // Authentication (Authentication 1, 3, 5), the scopes and the rate limit of every /v1 request.
    'server/guard.ts',
    // The documented plan table (Limits) and the limiter it is enforced with.
    'server/plans.ts',
    // Every error answer: its status ("standard HTTP status codes") and its JSON media type.
    'server/problem.ts',
    // X-RateLimit-* and Retry-After of every answer, routed or not.
    'server/rate-limit-answer.ts',
    'server/rate-limit/clock-jumps.ts',
    'server/rate-limit/token-bucket.ts',
    // The Ticket representation (its documented fields).
    'server/represent.ts',
    // The operations of the API.
    'server/routes/**/*.ts',
    // "Priority affects the SLA clock"; sla.at_risk when a ticket crosses its threshold.
    'server/sla.ts',
    'server/sla-sweep.ts',
    // Keys (scope, rotation, revocation) and the workspace every record belongs to (isolation).
    'server/store.ts',
    // The rate-limit headers and error body of answers to requests no route sees.
    'server/transport-errors.ts',
    // Delivery, signing, the chosen events of an endpoint, HTTPS targets.
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

/**
 * The files of server/ not mutated, each with why: none implements a documented rule of the
 * service's answers. A path ending in `/` stands for every file under it.
 */
export const notMutated = {
  'server/admin.ts':
    "The dashboard stand-in's own HTTP surface (U11: the docs set endpoints and keys up in a dashboard whose interface is not shown). The documented rules reached through it are implemented, and mutated, elsewhere: rotation and revocation in store.ts, an endpoint's chosen events, URL and secret in webhooks/dispatcher.ts.",
  'server/context.ts': 'Types only.',
  'server/credentials-file.ts':
    "Writes the harness's credentials files for `serve`: the test rig, no answer of the service.",
  'server/dashboard-endpoints.ts':
    "`serve --endpoints` (dashboard mode) only: seeds webhook endpoints from the harness's endpoints file; the gate's embedded deployment does not use it.",
  'server/faults.ts':
    'The fault catalogue: names, what each breaks, and the switch set. The gate runs with every fault off; a mutant that turns one on is a catalogued fault, which the detection matrix measures (the same reason the fault-switch ignorer leaves switches out).',
  'server/list-faults.ts':
    'Fault code only: installs nothing unless list-without-tickets or list-default-limit-zero is on.',
  'server/rate-limit/fixed-window.ts':
    'The limiter of the reading U24=fixed-window (assumed behaviour: how the burst applies is not shown); never runs without it, and the gate runs no reading.',
  'server/rate-limit/sliding-log.ts':
    'The limiter of the reading U24=sliding-window (assumed behaviour: how the burst applies is not shown); never runs without it, and the gate runs no reading.',
  'server/rate-limit/types.ts': 'Types only.',
  'server/readings/':
    "Assumed behaviour: each field of the defaults is our answer to a gap of the docs, and the catalogue's readings are the other answers a correct deployment may give, never on in the gate. A mutant of a default either does not type-check (a string union, an object of a declared shape) or flips a boolean to another answer to the same gap — a reading, which test/readings/ runs against the gate. index.ts composes them (with no reading on: the defaults).",
  'server/refused-body.ts':
    'Drains a body refused for its size so the client reads the 413: the body limit is assumed (U26: body size not shown).',
  'server/seed.ts':
    'The seeded state (workspaces, keys, macros, rules, contacts): what a user sets up in the dashboard, made by the test rig. The plan limits it gives each workspace are plans.ts (mutated).',
  'server/seed-tickets.ts':
    "`serve --seed-tickets` only (a long-lived deployment of old tickets); the gate's embedded deployment seeds none.",
  'server/start.ts': 'Binds the app to a loopback port: the test rig, no rule of the service.',
  'server/webhooks/types.ts': 'Types only.',
};
