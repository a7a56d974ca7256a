/**
 * `harness fuzz deliveries` and `harness fuzz api-input`: the two deployment-level fuzz checks,
 * against a deployment given by URL (secrets from environment variables, never the command line)
 * or, without `--url`, against the embedded reference deployment.
 */
import { writeFileSync } from 'node:fs';
import { loadConfig, parseListen } from '../core/config.ts';
import { redactValue } from '../core/redact.ts';
import { readEndpointsFile, withSecrets } from '../core/webhooks/endpoints-file.ts';
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

/** The options these subcommands read (the rest of `harness fuzz`'s are ignored). */
export interface DeploymentFuzzArgs {
  url?: string;
  'api-key-env'?: string;
  'admin-token-env'?: string;
  'receiver-host'?: string;
  'receiver-url'?: string;
  'receiver-listen'?: string;
  endpoints?: string;
  fault?: string;
  cases?: string;
  'max-seconds'?: string;
  seed?: string;
  json?: string;
}

function seedOf(args: DeploymentFuzzArgs): number | undefined {
  if (args.seed === undefined) return undefined;
  const seed = Number(args.seed);
  if (!Number.isSafeInteger(seed))
    throw new Error(`--seed must be an integer (got '${args.seed}')`);
  return seed;
}

function secretFromEnv(flag: string, name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${flag}: environment variable ${name} is not set or empty`);
  return value;
}

/**
 * The target: `--url` with secrets from the environment variables the flags name, or the
 * embedded deployment; resolved by the one resolver the run uses.
 */
async function withTarget<T>(
  args: DeploymentFuzzArgs,
  start: StartEmbedded | undefined,
  needsAdmin: boolean,
  fn: (t: ResolvedTarget, where: string) => Promise<T>,
): Promise<T> {
  const faults = (args.fault ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (args.url && faults.length > 0)
    throw new Error('--fault applies to the embedded deployment only');
  const cfg = loadConfig(
    args.url
      ? {
          HARNESS_BASE_URL: args.url,
          HARNESS_API_KEY: secretFromEnv('--api-key-env', args['api-key-env'] ?? 'HARNESS_API_KEY'),
          ...(needsAdmin
            ? {
                HARNESS_ADMIN_TOKEN: secretFromEnv(
                  '--admin-token-env',
                  args['admin-token-env'] ?? 'HARNESS_ADMIN_TOKEN',
                ),
              }
            : {}),
        }
      : { HARNESS_FAULTS: faults.join(',') },
  );
  const where =
    args.url ??
    `embedded reference deployment${faults.length ? ` (faults: ${faults.join(', ')})` : ''}`;
  return withResolvedTarget(cfg, { ...FUZZ_DEPLOYMENT, start }, (t) => fn(t, where));
}

function writeJson(file: string | undefined, result: unknown): void {
  if (file) writeFileSync(file, `${JSON.stringify(redactValue(result), null, 2)}\n`);
}

/** Where a command prints; stdout by default. */
export type Print = (text: string) => void;
const stdout: Print = (text) => {
  process.stdout.write(text);
};

/**
 * Dashboard mode of `fuzz deliveries`: the endpoints of `--endpoints FILE` (default
 * $HARNESS_WEBHOOK_ENDPOINTS), already configured to point at `--receiver-url` (default
 * $HARNESS_WEBHOOK_URL), with the receiver bound to `--receiver-listen` (default
 * $HARNESS_WEBHOOK_LISTEN). Undefined when no endpoints file is given: the admin surface is used.
 */
function dashboardOptions(args: DeploymentFuzzArgs) {
  const file = args.endpoints ?? (args.url ? process.env.HARNESS_WEBHOOK_ENDPOINTS : undefined);
  if (!file) return undefined;
  if (!args.url)
    throw new Error(
      '--endpoints describes a deployment given by --url (the embedded one is set up through its admin surface)',
    );
  const publicUrl = args['receiver-url'] ?? process.env.HARNESS_WEBHOOK_URL;
  if (!publicUrl)
    throw new Error(
      '--endpoints needs the public URL they point at: --receiver-url URL or HARNESS_WEBHOOK_URL',
    );
  const listen = parseListen(args['receiver-listen'] ?? process.env.HARNESS_WEBHOOK_LISTEN);
  return {
    endpoints: withSecrets(readEndpointsFile(file), process.env, file),
    receiverPublicUrl: publicUrl,
    receiverHost: args['receiver-host'] ?? listen.host,
    receiverPort: listen.port,
  };
}

/** `harness fuzz deliveries`: exit 0 when every delivery verified, 1 otherwise. */
export function deliveriesCommand(
  args: DeploymentFuzzArgs,
  start?: StartEmbedded,
  print: Print = stdout,
): Promise<number> {
  const dashboard = dashboardOptions(args);
  return withTarget(args, start, !dashboard, async (t, where) => {
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

/** `harness fuzz api-input`: exit 0 when the property held for every operation, 1 otherwise. */
export function apiInputCommand(
  args: DeploymentFuzzArgs,
  start?: StartEmbedded,
  print: Print = stdout,
): Promise<number> {
  return withTarget(args, start, false, async (t, where) => {
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
    return result.passed ? 0 : 1;
  });
}
