/**
 * `harness run` — what `npm start` does: the contract suite, the probes, the plan-limit load
 * checks and the fuzzing against one target, then the reports and the verdict table.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runAll } from '../run-all.ts';
import { type Area, parseAreas } from '../area-selection.ts';
import {
  type CommandSpec,
  parseCommand,
  UsageError,
  usageText,
} from '../../core/cli/command-spec.ts';
import { applyEnvFile, ENV_FILE_OPTION } from '../../core/cli/env-file.ts';
import { positiveNumber } from '../../core/cli/positive-number.ts';
import { closeAllGroups } from '../../core/process/process-group.ts';
import { CHILD_GRACE_MS, watchInterrupts } from '../interrupt.ts';

export const spec = {
  name: 'run',
  summary:
    'The whole job against one target: contract suite, probes, plan-limit load checks (≈ 95 s) and webhook fuzzing, then reports/latest/ and the verdict table (npm start).',
  options: {
    'env-file': ENV_FILE_OPTION,
    url: {
      type: 'string',
      arg: 'URL',
      help: 'target (default HARNESS_BASE_URL, else the embedded reference deployment)',
    },
    fault: {
      type: 'string',
      arg: 'a,b',
      multiple: true,
      help: 'faults of the embedded reference deployment (npm run serve -- --list-faults)',
    },
    strict: { type: 'boolean', help: 'an assumption mismatch fails the gate too' },
    detect: {
      type: 'boolean',
      help: 'also the detection matrix: the whole suite per fault of the catalogue, failing its named check and nothing unlisted (long: ≈ 11 CPU-minutes, ≈ 11 min on two busy cores)',
    },
    skip: {
      type: 'string',
      arg: 'AREA',
      multiple: true,
      help: 'contracts | load | fuzz (repeatable, or comma-separated)',
    },
    area: {
      type: 'string',
      arg: 'AREA',
      multiple: true,
      help: 'run only these areas: contracts | load | fuzz (repeatable, or comma-separated; default all, with --grep contracts only)',
    },
    out: { type: 'string', arg: 'DIR', help: 'report directory (default reports/latest)' },
    grep: {
      type: 'string',
      arg: 'PATTERN',
      help: 'only the contract tests whose title or tags match (e.g. @auth.invalid-key-401); the load and fuzz areas are not run unless --area names them',
    },
    'max-seconds': {
      type: 'string',
      arg: 'N',
      help: 'time limit of the whole run (or HARNESS_RUN_MAX_SECONDS; default: the areas’ own limits + 1 min, printed at the start): the area running then stops, the others are marked error, every report is still written. SIGINT/SIGTERM stop the run the same way, verdict ERROR "interrupted"',
    },
    reserve: {
      type: 'string',
      arg: 'N',
      help: 'requests of the key’s Remaining the run leaves for others (or HARNESS_RESERVE; default 20 % of the key’s burst): pacing waits rather than spend below it',
    },
    'max-requests': {
      type: 'string',
      arg: 'N',
      help: 'requests the run may send (or HARNESS_MAX_REQUESTS), planned from the cost line: the fuzz shrinks first (fewer cases, the samplers alone, fewer operations); contract tests that still do not fit are not run and listed as not run, and the verdict line says the gate was partial',
    },
    'fuzz-cases': {
      type: 'string',
      arg: 'N',
      help: 'API input cases per operation of the fuzz (or HARNESS_FUZZ_CASES; the samplers always run whole): default 40, gate-sized on a Team key (the samplers alone); 40 restores the full fuzz',
    },
    tags: {
      type: 'boolean',
      help: 'show each contract test’s check tags on the console (always in the report files)',
    },
    'time-scale': {
      type: 'string',
      arg: 'N',
      help: 'the target’s clock runs N× real time — a reference deployment served with --time-scale N (the load area starts the embedded one so) — and the load area’s schedule is N× shorter (default 1)',
    },
  },
  env: [
    'HARNESS_BASE_URL',
    'HARNESS_API_KEY',
    'HARNESS_READONLY_KEY',
    'HARNESS_OTHER_WORKSPACE_KEY',
    'HARNESS_TEAM_KEYS',
    'HARNESS_GROWTH_KEYS',
    'HARNESS_ENTERPRISE_KEYS',
    'HARNESS_WEBHOOK_URL',
    'HARNESS_WEBHOOK_LISTEN',
    'HARNESS_WEBHOOK_ENDPOINTS',
    'HARNESS_WEBHOOK_SECRET',
    'HARNESS_WEBHOOK_TLS_CERT',
    'HARNESS_WEBHOOK_TLS_KEY',
    'HARNESS_WEBHOOK_RETRY_WAIT_MS',
    'HARNESS_ADMIN_TOKEN',
    'HARNESS_FAULTS',
    'HARNESS_STRICT',
    'HARNESS_READ_ONLY',
    'HARNESS_ALLOW_INSECURE',
    'HARNESS_TIMEOUT_MS',
    'HARNESS_BASELINE',
    'HARNESS_COMPAT_FAIL_ON',
    'HARNESS_RUN_MAX_SECONDS',
    'HARNESS_RESERVE',
    'HARNESS_FUZZ_CASES',
    'HARNESS_MAX_REQUESTS',
    'HARNESS_WORKERS',
    'K6_BIN',
    'FC_SEED',
  ],
  examples: [
    'npm start                                  # embedded reference deployment, everything',
    'npm start -- --skip load                   # contracts + fuzz only (≈ 15 s)',
    'npm start -- --fault create-status-new     # a fault on: exit 1, naming the check',
    'npm start -- --env-file staging.env        # HARNESS_* variables from a file',
    'npm start -- --grep @auth.invalid-key-401  # that contract test only, no load or fuzz',
    'npm start -- --grep @auth.invalid-key-401 --area contracts,load,fuzz',
    'HARNESS_BASE_URL=https://staging.example.com HARNESS_API_KEY=… npx harness run',
    'npx harness run --env-file served.env --time-scale 10   # npm run serve -- --time-scale 10',
  ],
  exit0: 'every documented rule held (assumption mismatches are reported, not fatal)',
  exit1:
    'a documented rule failed (with --strict also an assumption; with HARNESS_COMPAT_FAIL_ON a behaviour change at or above it)',
  exit2:
    "an area could not run to its end, or could not look: the target's own answers (a 429 in a rule's place, tests its rate limit stopped) kept a documented rule from being checked on most of what it applies to (summary.json `unchecked` names it)",
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  applyEnvFile(values['env-file']);
  const areasOf = (flag: string, v: string[] | undefined): Area[] => {
    try {
      return parseAreas(flag, v);
    } catch (e) {
      throw new UsageError((e as Error).message, usageText(spec));
    }
  };
  const skip = areasOf('--skip', values.skip);
  const areas = values.area ? areasOf('--area', values.area) : undefined;
  const faults = (values.fault ?? []).flatMap((f) => f.split(',')).filter(Boolean);
  if (faults.length) {
    const { FaultSet } = await import('../../server/faults.ts');
    new FaultSet(faults); // unknown names fail here, with the list of known ones
  }
  const maxSeconds =
    values['max-seconds'] === undefined
      ? undefined
      : positiveNumber('max-seconds', values['max-seconds'], 0);
  const whole = (name: string, min: number): number | undefined => {
    const raw = values[name as 'reserve'];
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < min)
      throw new UsageError(
        `--${name} must be a whole number ≥ ${min} (got '${raw}')`,
        usageText(spec),
      );
    return Number(raw);
  };
  const timeScale = positiveNumber('time-scale', values['time-scale'], 1);
  const reserve = whole('reserve', 0);
  const fuzzCases = whole('fuzz-cases', 1);
  const maxRequests = whole('max-requests', 1);
  // This process owns the run: an interrupt or the time limit ends its children (one path).
  const interrupts = watchInterrupts((l) => process.stderr.write(`${l}\n`));
  try {
    const { exitCode, outOfTime, interrupted } = await runAll({
      outDir: values.out,
      ...(values.url ? { baseUrl: values.url } : {}),
      skip,
      ...(areas ? { areas } : {}),
      faults,
      strict: values.strict ?? false,
      detect: values.detect ?? false,
      tags: values.tags ?? false,
      timeScale,
      maxSeconds,
      ...(reserve !== undefined ? { reserve } : {}),
      ...(fuzzCases !== undefined ? { fuzzCases } : {}),
      ...(maxRequests !== undefined ? { maxRequests } : {}),
      grep: values.grep,
      signal: interrupts.signal,
      onStop: () => void closeAllGroups(CHILD_GRACE_MS),
    });
    // An area cut short may still hold sockets, timers and children: the reports are written, so
    // end its children (already stopping) and this process here rather than wait for them.
    if (outOfTime || interrupted) {
      // Bounded: a process SIGKILL cannot end (stuck in the kernel) must not hold the exit.
      await Promise.race([closeAllGroups(CHILD_GRACE_MS), sleep(CHILD_GRACE_MS + 3_000)]);
      process.exit(exitCode);
    }
    return exitCode;
  } finally {
    interrupts.dispose();
  }
}
