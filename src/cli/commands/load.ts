/**
 * `harness load --plan team|growth|enterprise|all [--engine node|k6] [--base-url URL]
 *   [--time-scale N] [--budget N] [--max-seconds N] [--allow-insecure-remote]`
 *
 * Keys: HARNESS_TEAM_KEYS, HARNESS_GROWTH_KEYS, HARNESS_ENTERPRISE_KEYS (comma-separated; the
 * second key of the same workspace enables the scope phase). Base URL: --base-url or
 * HARNESS_BASE_URL; without one the embedded reference deployment is started on loopback.
 * Enterprise numbers: HARNESS_ENTERPRISE_RATE / HARNESS_ENTERPRISE_BURST, else the headers.
 */
import { parseArgs } from 'node:util';
import { isPlanName, PLAN_NAMES, type PlanName } from '../../../load/lib/index.ts';
import { type EngineChoice, runLoad, summaryLine } from '../../load/run-load.ts';
import { loadConfig } from '../../config.ts';
import { resolveTarget } from '../../target/resolve-target.ts';

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--${name} must be a positive number, got '${v}'`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      plan: { type: 'string', default: 'all' },
      engine: { type: 'string', default: 'auto' },
      'base-url': { type: 'string' },
      'time-scale': { type: 'string' },
      budget: { type: 'string' },
      'max-seconds': { type: 'string' },
      'allow-insecure-remote': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: harness load --plan team|growth|enterprise|all [--engine auto|node|k6] [--base-url URL]\n' +
        '       [--time-scale N] [--budget N] [--max-seconds N] [--allow-insecure-remote]\n',
    );
    return 0;
  }
  const engine = values.engine as EngineChoice;
  if (!['auto', 'node', 'k6'].includes(engine))
    throw new Error(`--engine must be auto, node or k6, got '${values.engine}'`);
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
    throw new Error(`--plan must be team, growth, enterprise or all, got '${planArg}'`);
  // Keys come from HARNESS_<PLAN>_KEYS; the embedded deployment runs Team and Growth by default,
  // with its clock at the same scale as the schedule.
  const cfg = loadConfig(
    { ...process.env, ...(values['base-url'] ? { HARNESS_BASE_URL: values['base-url'] } : {}) },
    { apiKey: 'optional' },
  );
  const wanted: PlanName[] = planArg === 'all' ? ['team', 'growth'] : [planArg as PlanName];
  const target = await resolveTarget(cfg, { timeScale, plans: wanted });
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
    const er = num('HARNESS_ENTERPRISE_RATE', process.env.HARNESS_ENTERPRISE_RATE);
    const eb = num('HARNESS_ENTERPRISE_BURST', process.env.HARNESS_ENTERPRISE_BURST);
    results = await runLoad({
      ...cleanUndefined(common),
      plans,
      baseUrl: target.baseUrl,
      keys,
      enterprise: target.service
        ? { burst: target.service.credentials.workspaces.enterprise.burst }
        : { ratePerMin: er, burst: eb },
    });
  } finally {
    await target.close();
  }
  for (const r of results) process.stdout.write(`${summaryLine(r)}\n`);
  process.stdout.write('reports: reports/latest/load-<plan>.json and .svg\n');
  return results.every((r) => r.passed) ? 0 : 1;
}

function cleanUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
