/**
 * `harness fuzz deliveries` and `harness fuzz api-input`: the two deployment-level fuzz checks,
 * against the target of the one configuration every command reads (core/config.ts): `--url`,
 * else HARNESS_BASE_URL (from the environment or `--env-file`), else the embedded reference
 * deployment. Secrets come from environment variables, never the command line.
 */
import { writeFileSync } from 'node:fs';
import { type HarnessConfig, loadConfig } from '../core/config.ts';
import { envVar } from '../core/variables.ts';
import { redactValue } from '../core/redact.ts';
import { runApiInputFuzz } from './api-input/api-input.ts';
import { formatApiInputFuzz } from './api-input/format.ts';
import { runDeliveryCheck } from './deliveries/delivery-check.ts';
import { formatDeliveryCheck } from './deliveries/format.ts';
import { FUZZ_DEPLOYMENT } from './deliveries/embedded.ts';
import {
  fullKey,
  type ResolvedTarget,
  type StartEmbedded,
  withTarget as withResolvedTarget,
} from '../core/target/resolve-target.ts';
import { positiveNumber } from '../core/cli/positive-number.ts';
import { applyEnvFile, ENV_FILE_OPTION } from '../core/cli/env-file.ts';
import type { OptionSpec, Values as OptionValues } from '../core/cli/command-spec.ts';

/** The options of `fuzz api-input`; `fuzz deliveries` has more (DELIVERIES_OPTIONS). */
export const DEPLOYMENT_OPTIONS = {
  url: {
    type: 'string',
    arg: 'URL',
    help: 'deployment (default HARNESS_BASE_URL, else the embedded reference deployment)',
  },
  'env-file': ENV_FILE_OPTION,
  'api-key-env': {
    type: 'string',
    arg: 'NAME',
    help: 'variable holding a full-access key (default HARNESS_API_KEY)',
  },
  fault: { type: 'string', arg: 'a,b', help: 'faults of the embedded deployment' },
  cases: {
    type: 'string',
    arg: 'N',
    help: 'scenarios (deliveries, default 25) or cases per operation (api-input, default 100; its class sampler runs whole)',
  },
  'max-seconds': { type: 'string', arg: 'N', help: 'wall-clock budget of the run (default 60)' },
  seed: { type: 'string', arg: 'N', help: 'fast-check seed (default FC_SEED, else fixed)' },
  json: { type: 'string', arg: 'FILE', help: 'also write the result as JSON (secrets redacted)' },
} as const satisfies Record<string, OptionSpec>;

export const DELIVERIES_OPTIONS = {
  ...DEPLOYMENT_OPTIONS,
  'admin-token-env': {
    type: 'string',
    arg: 'NAME',
    help: 'variable holding the admin token (default HARNESS_ADMIN_TOKEN)',
  },
  endpoints: {
    type: 'string',
    arg: 'FILE',
    help: 'endpoints set up in the deployment’s dashboard; secrets from each secret_env (default HARNESS_WEBHOOK_ENDPOINTS)',
  },
  'receiver-listen': {
    type: 'string',
    arg: 'HOST:PORT',
    help: 'where the capture receiver listens (default HARNESS_WEBHOOK_LISTEN or 127.0.0.1:0)',
  },
  'receiver-host': { type: 'string', arg: 'HOST', help: 'interface of the capture receiver' },
  'receiver-url': {
    type: 'string',
    arg: 'URL',
    help: 'URL under which the deployment reaches it (default its address; with --endpoints HARNESS_WEBHOOK_URL)',
  },
} as const satisfies Record<string, OptionSpec>;

/** The options these subcommands read (the rest of `harness fuzz`'s are ignored). */
export type DeploymentFuzzArgs = OptionValues<typeof DELIVERIES_OPTIONS>;

/** `--seed`, an integer when given. */
export function seedOf(args: Pick<DeploymentFuzzArgs, 'seed'>): number | undefined {
  if (args.seed === undefined) return undefined;
  const seed = Number(args.seed);
  if (!Number.isSafeInteger(seed))
    throw new Error(`--seed must be an integer (got '${args.seed}')`);
  return seed;
}

function secretFromEnv(flag: string, name: string): void {
  if (!process.env[name])
    throw new Error(`${flag}: environment variable ${name} is not set or empty`);
}

/**
 * The deployment the command targets — `--url`, else HARNESS_BASE_URL — after `--env-file` was
 * read; undefined: the embedded one.
 */
function remoteUrl(args: DeploymentFuzzArgs): string | undefined {
  applyEnvFile(args['env-file']);
  return args.url ?? envVar('HARNESS_BASE_URL');
}

/**
 * The configuration, read once by the one loader (`--url` over HARNESS_BASE_URL): a deployment
 * with the secrets of the variables the flags name (and its dashboard endpoints: `--endpoints`
 * or HARNESS_WEBHOOK_*), else the embedded deployment with `--fault`.
 */
function configOf(args: DeploymentFuzzArgs, needsAdmin: boolean): HarnessConfig {
  const remote = remoteUrl(args);
  const faults = (args.fault ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (remote && faults.length > 0)
    throw new Error(
      `--fault applies to the embedded deployment only${args.url ? '' : ' (HARNESS_BASE_URL is set)'}`,
    );
  if (!remote) return loadConfig(process.env, faults.length ? { faults } : {});
  const apiKeyVar = args['api-key-env'] ?? 'HARNESS_API_KEY';
  const adminTokenVar = args['admin-token-env'] ?? 'HARNESS_ADMIN_TOKEN';
  secretFromEnv('--api-key-env', apiKeyVar);
  if (needsAdmin) secretFromEnv('--admin-token-env', adminTokenVar);
  return loadConfig(process.env, {
    ...(args.url ? { baseUrl: args.url } : {}),
    apiKeyVar,
    ...(needsAdmin ? { adminTokenVar } : {}),
    ...(args.endpoints ? { webhookEndpoints: args.endpoints } : {}),
    ...(args['receiver-url'] ? { webhookUrl: args['receiver-url'] } : {}),
    ...(args['receiver-listen'] ? { webhookListen: args['receiver-listen'] } : {}),
  });
}

/** The target of `cfg`, resolved by the one resolver the run uses. */
async function withTarget<T>(
  cfg: HarnessConfig,
  start: StartEmbedded | undefined,
  fn: (t: ResolvedTarget, where: string) => Promise<T>,
): Promise<T> {
  const where =
    cfg.baseUrl ??
    `embedded reference deployment${cfg.faults.length ? ` (faults: ${cfg.faults.join(', ')})` : ''}`;
  return withResolvedTarget(cfg, { ...FUZZ_DEPLOYMENT, start }, (t) => fn(t, where));
}

/** `--json FILE`: the result, secrets redacted. */
export function writeJson(file: string | undefined, result: unknown): void {
  if (file) writeFileSync(file, `${JSON.stringify(redactValue(result), null, 2)}\n`);
}

/** Where a command prints; stdout by default. */
export type Print = (text: string) => void;
const stdout: Print = (text) => {
  process.stdout.write(text);
};

/**
 * Dashboard mode of `fuzz deliveries`: a deployment (`--url` or HARNESS_BASE_URL) whose
 * endpoints are set up in its dashboard — `--endpoints FILE` (default
 * HARNESS_WEBHOOK_ENDPOINTS), pointing at `--receiver-url` (default HARNESS_WEBHOOK_URL), the
 * receiver bound to `--receiver-listen` (default HARNESS_WEBHOOK_LISTEN). Without an endpoints
 * file the admin surface is used.
 */
function dashboardMode(args: DeploymentFuzzArgs): boolean {
  const remote = remoteUrl(args);
  if (!remote && args.endpoints)
    throw new Error(
      '--endpoints describes a deployment given by --url or HARNESS_BASE_URL (the embedded one is set up through its admin surface)',
    );
  const file = args.endpoints ?? envVar('HARNESS_WEBHOOK_ENDPOINTS');
  if (remote && file && !args['receiver-url'] && !envVar('HARNESS_WEBHOOK_URL'))
    throw new Error(
      '--endpoints needs the public URL they point at: --receiver-url URL or HARNESS_WEBHOOK_URL',
    );
  return Boolean(remote && file);
}

function dashboardOptions(args: DeploymentFuzzArgs, cfg: HarnessConfig) {
  return {
    endpoints: cfg.webhookEndpoints,
    receiverPublicUrl: cfg.webhookUrl!,
    receiverHost: args['receiver-host'] ?? cfg.webhookListen.host,
    receiverPort: cfg.webhookListen.port,
  };
}

/**
 * Why the delivery check cannot run on the configured target (`harness fuzz` without a
 * subcommand lists it as not run): a deployment with neither an admin token nor dashboard
 * endpoints offers no way to subscribe the receiver.
 */
export function deliveriesNotRun(args: DeploymentFuzzArgs): string | undefined {
  if (!remoteUrl(args) || dashboardMode(args)) return undefined;
  const adminTokenVar = args['admin-token-env'] ?? 'HARNESS_ADMIN_TOKEN';
  return process.env[adminTokenVar]
    ? undefined
    : `not run: needs ${adminTokenVar}, or HARNESS_WEBHOOK_URL with HARNESS_WEBHOOK_ENDPOINTS for endpoints configured in the dashboard`;
}

/** `harness fuzz deliveries`: exit 0 when every delivery verified, 1 otherwise. */
export function deliveriesCommand(
  args: DeploymentFuzzArgs,
  start?: StartEmbedded,
  print: Print = stdout,
): Promise<number> {
  const cfg = configOf(args, !dashboardMode(args));
  const dashboard = dashboardMode(args) ? dashboardOptions(args, cfg) : undefined;
  return withTarget(cfg, start, async (t, where) => {
    print(
      `webhook delivery check: ${where}${dashboard ? ` (${dashboard.endpoints.length} endpoints configured in its dashboard)` : ''}\n`,
    );
    const seed = seedOf(args);
    const result = await runDeliveryCheck({
      baseUrl: t.baseUrl,
      apiKey: fullKey(t),
      ...(t.admin && !dashboard ? { admin: t.admin } : {}),
      numRuns: positiveNumber('cases', args.cases, 25, true),
      maxSeconds: positiveNumber('max-seconds', args['max-seconds'], 60, false),
      ...(seed === undefined ? {} : { seed }),
      ...(args['receiver-host'] ? { receiverHost: args['receiver-host'] } : {}),
      ...(args['receiver-url'] ? { receiverPublicUrl: args['receiver-url'] } : {}),
      ...(dashboard ?? {}),
    });
    print(`${formatDeliveryCheck(result)}\n`);
    writeJson(args.json, result);
    return result.passed ? 0 : 1;
  });
}

/**
 * `harness fuzz api-input`: exit 0 when the property held for every operation, 1 when it broke,
 * 2 when the harness itself failed on a case (the report names it).
 */
export function apiInputCommand(
  args: DeploymentFuzzArgs,
  start?: StartEmbedded,
  print: Print = stdout,
): Promise<number> {
  return withTarget(configOf(args, false), start, async (t, where) => {
    print(`api input fuzz: ${where}\n`);
    const seed = seedOf(args);
    const result = await runApiInputFuzz({
      baseUrl: t.baseUrl,
      apiKey: fullKey(t),
      numRuns: positiveNumber('cases', args.cases, 100, true),
      maxSeconds: positiveNumber('max-seconds', args['max-seconds'], 60, false),
      ...(seed === undefined ? {} : { seed }),
    });
    print(`${formatApiInputFuzz(result)}\n`);
    writeJson(args.json, result);
    return !result.passed ? 1 : result.operations.some((o) => o.status === 'error') ? 2 : 0;
  });
}
