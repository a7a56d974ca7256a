/**
 * `harness load`: the plan-limit load checks. Keys come from HARNESS_TEAM_KEYS,
 * HARNESS_GROWTH_KEYS, HARNESS_ENTERPRISE_KEYS (comma-separated; the second key of the same
 * workspace enables the scope phase; HARNESS_OTHER_WORKSPACE_KEY, a key of another workspace, the
 * other-workspace verdict); the base URL from --url or HARNESS_BASE_URL, else the
 * embedded reference deployment is started on loopback. Enterprise numbers:
 * HARNESS_ENTERPRISE_RATE / HARNESS_ENTERPRISE_BURST, else the headers. Its reports go to a
 * folder of its own (reports/load/, emptied first), never beside another run's.
 */
import { isPlanName, PLAN_NAMES, type PlanName } from './lib/index.ts';
import { type EngineChoice, runLoad, summaryLine } from './run-load.ts';
import { loadConfig } from '../core/config.ts';
import { resolveTarget, type StartEmbedded } from '../core/target/resolve-target.ts';
import { type CommandSpec, parseCommand, UsageError, usageText } from '../core/cli/command-spec.ts';
import { applyEnvFile, ENV_FILE_OPTION } from '../core/cli/env-file.ts';
import { prepareOut } from '../core/output-dir.ts';

/** Where `harness load` writes unless told: its own folder, not the run's reports/latest/. */
export const LOAD_OUT = 'reports/load';

export const spec = {
  name: 'load',
  summary:
    'Plan-limit load checks in real time: burst B̂ and rate r̂ with their uncertainty, the limiter algorithm, the unit of X-RateLimit-Reset, the key scope and Retry-After, judged against the documented plan limits. A progress line shows phase, requests, 2xx, 429 and the current estimate.',
  about: [
    'Results: load-PLAN.json and .svg of each plan in reports/load/ (--out; emptied first),',
    'and one summary line per plan.',
  ],
  options: {
    plan: {
      type: 'string',
      arg: 'team|growth|enterprise|all',
      default: 'all',
      help: 'the plans to run (all: those with keys; on the embedded deployment Team and Growth)',
    },
    engine: {
      type: 'string',
      arg: 'auto|node|k6',
      default: 'auto',
      help: 'auto: k6 when K6_BIN or PATH has one, else the Node driver; k6 also finds ../shared/bin/k6',
    },
    url: {
      type: 'string',
      arg: 'URL',
      help: 'target (default HARNESS_BASE_URL, else the embedded deployment)',
    },
    'base-url': { type: 'string', arg: 'URL', help: 'the same as --url' },
    out: {
      type: 'string',
      arg: 'DIR',
      help: `report directory (default ${LOAD_OUT}; emptied first, as harness run empties its own)`,
    },
    'time-scale': {
      type: 'string',
      arg: 'N',
      help: 'the embedded deployment’s clock runs N× real time, the schedule N× shorter (default 1)',
    },
    budget: { type: 'string', arg: 'N', help: 'most requests all plans may send (default 10000)' },
    'max-seconds': { type: 'string', arg: 'N', help: 'wall-clock limit of the run (default 180)' },
    'allow-insecure-remote': {
      type: 'boolean',
      help: 'allow plain HTTP to a non-loopback host',
    },
    'env-file': ENV_FILE_OPTION,
  },
  env: [
    'HARNESS_BASE_URL',
    'HARNESS_TEAM_KEYS',
    'HARNESS_GROWTH_KEYS',
    'HARNESS_ENTERPRISE_KEYS',
    'HARNESS_OTHER_WORKSPACE_KEY',
    'HARNESS_ENTERPRISE_RATE',
    'HARNESS_ENTERPRISE_BURST',
    'K6_BIN',
  ],
  examples: [
    'npm run load -- --plan team                       # embedded deployment, ≈ 95 s',
    'npm run load -- --plan all --engine k6            # Team and Growth under k6',
    'npm run load -- --plan team --time-scale 10       # embedded clock 10× faster',
    'HARNESS_BASE_URL=https://staging.example.com HARNESS_TEAM_KEYS=k1,k2 npx harness load --plan team',
  ],
  exit0: 'every verdict of every plan passed',
  exit1: 'a plan-limit verdict failed (the summary line names it) or the run was cut short',
} as const satisfies CommandSpec;

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--${name} must be a positive number, got '${v}'`);
  return n;
}

/** `start`: how to start the embedded deployment (server/start.ts, from run/commands.ts). */
export async function run(argv: string[], start?: StartEmbedded): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  applyEnvFile(values['env-file']);
  const engine = values.engine as EngineChoice;
  if (!['auto', 'node', 'k6'].includes(engine))
    throw new UsageError(
      `--engine must be auto, node or k6, got '${values.engine}'`,
      usageText(spec),
    );
  const planArg = values.plan ?? 'all';
  const timeScale = num('time-scale', values['time-scale']) ?? 1;
  const common = {
    engine,
    timeScale,
    budget: num('budget', values.budget),
    maxSeconds: num('max-seconds', values['max-seconds']),
    allowInsecureRemote: values['allow-insecure-remote'] ?? false,
    progress: process.stderr,
  };

  if (planArg !== 'all' && !isPlanName(planArg))
    throw new UsageError(
      `--plan must be team, growth, enterprise or all, got '${planArg}'`,
      usageText(spec),
    );
  // Keys come from HARNESS_<PLAN>_KEYS; the embedded deployment runs Team and Growth by default,
  // with its clock at the same scale as the schedule.
  const url = values.url ?? values['base-url'];
  const cfg = loadConfig(process.env, { ...(url ? { baseUrl: url } : {}), apiKey: 'optional' });
  const out = values.out ?? LOAD_OUT;
  prepareOut(out, 'harness load');
  const wanted: PlanName[] = planArg === 'all' ? ['team', 'growth'] : [planArg as PlanName];
  const target = await resolveTarget(cfg, { timeScale, plans: wanted, start });
  let results: Awaited<ReturnType<typeof runLoad>>;
  try {
    const plans = target.service
      ? wanted
      : planArg === 'all'
        ? PLAN_NAMES.filter((p) => target.keys.plans[p])
        : wanted;
    const keys = target.keys.plans;
    if (plans.length === 0 || plans.some((p) => !keys[p]))
      throw new Error(
        `no keys${plans.length ? ` for ${plans.filter((p) => !keys[p]).join(', ')}` : ''}: set HARNESS_TEAM_KEYS / HARNESS_GROWTH_KEYS / HARNESS_ENTERPRISE_KEYS`,
      );
    if (target.service)
      process.stderr.write(
        `load: embedded reference deployment at ${target.baseUrl} (time scale ${timeScale})\n`,
      );
    else process.stderr.write(`load: ${target.baseUrl}\n`);
    results = await runLoad({
      ...common,
      plans,
      baseUrl: target.baseUrl,
      keys,
      // HARNESS_OTHER_WORKSPACE_KEY, or the embedded deployment's `other` workspace.
      otherWorkspaceKey: target.keys.otherWorkspace,
      outDir: out,
      enterprise: target.service
        ? { burst: target.service.credentials.workspaces.enterprise.burst }
        : cfg.enterpriseLimits,
    });
  } finally {
    await target.close();
  }
  for (const r of results) process.stdout.write(`${summaryLine(r)}\n`);
  const files = results.flatMap((r) => [`load-${r.plan}.json`, `load-${r.plan}.svg`]);
  process.stdout.write(`reports in ${out.replace(/\/+$/, '')}/: ${files.join(', ')}\n`);
  return results.every((r) => r.passed) ? 0 : 1;
}
