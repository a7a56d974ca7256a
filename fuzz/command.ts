/**
 * `harness fuzz [SUB] [options]`
 *
 * - `verifier`: the in-process fast-check properties of the signature module (fuzz/signature).
 * - `receiver --url URL --secret-env NAME …`: black-box fuzz of any webhook receiver; assumed
 *   properties are warnings unless `--strict`.
 * - `example-receiver`: the receiver fuzz against examples/receiver on loopback, a self-check
 *   that must always pass.
 * - `deliveries [--url URL] …`: the webhook delivery check (fuzz/deliveries/delivery-check.ts).
 * - `api-input [--url URL] …`: the API input fuzz (fuzz/api-input/api-input.ts).
 * - no subcommand: `verifier`, `example-receiver`, then `deliveries` and `api-input` (what
 *   `npm run fuzz` needs from this area).
 *
 * `deliveries` and `api-input` target what every command targets: `--url`, else
 * HARNESS_BASE_URL (also from `--env-file`), else the embedded reference deployment.
 *
 * Each subcommand has its own option table (`harness fuzz SUB --help`).
 */
import { randomBytes } from 'node:crypto';
import { formatPropertyLine, formatReceiverFuzzReport } from './receiver/format.ts';
import { type ReceiverFuzzOptions, runReceiverFuzz } from './receiver/run-receiver-fuzz.ts';
import { withLocalReceiver } from './receiver/local.ts';
import { runSignatureProperties, SIGNATURE_RULES } from './signature/index.ts';
import {
  type CommandSpec,
  type OptionSpec,
  parseCommand,
  UsageError,
  usageText,
  type Values as OptionValues,
} from '../core/cli/command-spec.ts';
import {
  apiInputCommand,
  DELIVERIES_OPTIONS,
  DEPLOYMENT_OPTIONS,
  deliveriesCommand,
  deliveriesNotRun,
  seedOf,
  writeJson,
} from './deployment-command.ts';
import { positiveNumber } from '../core/cli/positive-number.ts';
import { ENV_FILE_OPTION } from '../core/cli/env-file.ts';
import type { FuzzWiring } from './wiring.ts';

const EXIT1 = 'a property failed: the counterexample (shrunk) and its seed are printed';
const RECEIVER_EXIT1 =
  'a documented property failed (with --strict also an assumed one): the counterexample (shrunk) and its seed are printed';

const bound = {
  cases: { type: 'string', arg: 'N', help: 'cases per property (default 50)' },
  'max-seconds': { type: 'string', arg: 'N', help: 'wall-clock budget of the run (default 120)' },
  rate: { type: 'string', arg: 'N', help: 'most requests per second (default 50)' },
  seed: DEPLOYMENT_OPTIONS.seed,
  json: DEPLOYMENT_OPTIONS.json,
} as const satisfies Record<string, OptionSpec>;

const receiverBounds = {
  form: {
    type: 'string',
    arg: 'prefixed|plain|both',
    default: 'both',
    help: 'signature header form(s) to send',
  },
  ...bound,
  only: { type: 'string', arg: 'A,B', help: 'run only these properties' },
  strict: {
    type: 'boolean',
    help: 'assumed properties (hardening beyond the documented rule) fail too; default: warnings',
  },
} as const satisfies Record<string, OptionSpec>;

export const SUBCOMMANDS = {
  verifier: {
    name: 'fuzz verifier',
    summary:
      'The signature module’s own properties (fast-check, in process), in both header forms: a valid signature verifies, any change to the body, the signature or the secret is refused.',
    options: {},
    env: ['FC_SEED'],
    examples: ['npx harness fuzz verifier'],
    exit1: EXIT1,
  },
  receiver: {
    name: 'fuzz receiver',
    summary:
      'Black-box fuzz of any webhook receiver: validly and invalidly signed deliveries; every run includes one validly signed body of each class a careless receiver alters before hashing (CRLF, BOM, NUL, invalid UTF-8, NFC/NFD, \\u escapes, key order, number spellings).',
    about: [
      'The secret is read from the variable --secret-env names, never from the command line.',
    ],
    options: {
      url: { type: 'string', arg: 'URL', help: 'receiver endpoint, http or https (required)' },
      'secret-env': {
        type: 'string',
        arg: 'NAME',
        help: 'variable holding its signing secret (required)',
      },
      ...receiverBounds,
    },
    env: ['FC_SEED'],
    examples: [
      'npx harness fuzz receiver --url https://hooks.example.com/in --secret-env HOOK_SECRET',
      'npx harness fuzz receiver --url http://127.0.0.1:3000/webhook --secret-env S --form plain',
    ],
    exit1: RECEIVER_EXIT1,
  },
  'example-receiver': {
    name: 'fuzz example-receiver',
    summary:
      'The receiver fuzz against examples/receiver on 127.0.0.1 with a fresh secret: a self-check that must always pass.',
    options: receiverBounds,
    env: ['FC_SEED'],
    examples: ['npx harness fuzz example-receiver --cases 20'],
    exit1: RECEIVER_EXIT1,
  },
  deliveries: {
    name: 'fuzz deliveries',
    summary:
      'Real webhook deliveries of a deployment, verified over the bytes received, per header form; with the dashboard endpoints file no admin token is needed.',
    options: DELIVERIES_OPTIONS,
    env: [
      'HARNESS_BASE_URL',
      'HARNESS_API_KEY',
      'HARNESS_ADMIN_TOKEN',
      'HARNESS_WEBHOOK_ENDPOINTS',
      'HARNESS_WEBHOOK_URL',
      'HARNESS_WEBHOOK_LISTEN',
      'FC_SEED',
    ],
    examples: [
      'npx harness fuzz deliveries --cases 10                      # embedded deployment',
      'npx harness fuzz deliveries --fault signature-uppercase     # exit 1',
      'npx harness fuzz deliveries --url https://staging.example.com --endpoints endpoints.yaml',
    ],
    exit1: 'a delivery did not verify over the bytes received (or arrived unsigned, late, twice)',
  },
  'api-input': {
    name: 'fuzz api-input',
    summary:
      'Schema-derived valid and invalid bodies for create, update and message, and query strings for the list: valid ones accepted, invalid ones refused with a 4xx problem, never a 5xx, nothing half done; every input class (each Unicode plane, boundary lengths, tags lists, number edges) sent by a class sampler first and counted.',
    options: DEPLOYMENT_OPTIONS,
    env: ['HARNESS_BASE_URL', 'HARNESS_API_KEY', 'FC_SEED'],
    examples: [
      'npx harness fuzz api-input --cases 50                       # embedded deployment',
      'HARNESS_BASE_URL=https://staging.example.com HARNESS_API_KEY=… npx harness fuzz api-input',
      'npx harness fuzz api-input --env-file staging.env --url https://other.example.com',
    ],
    exit1: 'a body was answered against its rule (5xx, accepted when invalid, refused when valid)',
  },
} as const satisfies Record<string, CommandSpec>;

export const spec = {
  name: 'fuzz',
  args: '[SUB]',
  summary:
    'Signature and webhook fuzzing. Without SUB: verifier, example-receiver, then deliveries and api-input against HARNESS_BASE_URL, else the embedded deployment (npm run fuzz).',
  subcommands: Object.entries(SUBCOMMANDS).map(([name, s]) => ({
    name,
    summary: s.summary.split(/[:;]|\. /)[0]!,
  })),
  options: { ...bound, 'env-file': ENV_FILE_OPTION },
  env: ['HARNESS_BASE_URL', 'HARNESS_API_KEY', 'HARNESS_ADMIN_TOKEN', 'FC_SEED'],
  examples: [
    'npm run fuzz',
    'npx harness fuzz receiver --url URL --secret-env NAME',
    'npx harness fuzz deliveries --help',
  ],
  exit1: EXIT1,
} as const satisfies CommandSpec;

/** The options the bounds read, whichever subcommand parsed them: the receiver's have them all. */
type Values = OptionValues<typeof SUBCOMMANDS.receiver.options>;

function bounds(values: Values): Omit<ReceiverFuzzOptions, 'url' | 'secret'> {
  const seed = seedOf(values);
  const form = values.form ?? 'both';
  if (!['prefixed', 'plain', 'both'].includes(form))
    throw new Error(`--form must be prefixed, plain or both (got '${form}')`);
  return {
    form: form as ReceiverFuzzOptions['form'],
    cases: positiveNumber('cases', values.cases, 50, true),
    maxSeconds: positiveNumber('max-seconds', values['max-seconds'], 120),
    rate: positiveNumber('rate', values.rate, 50),
    strict: values.strict ?? false,
    ...(seed === undefined ? {} : { seed }),
    ...(values.only
      ? {
          only: values.only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
  };
}

async function fuzzReceiver(
  options: ReceiverFuzzOptions,
  jsonFile: string | undefined,
): Promise<number> {
  process.stdout.write(`receiver fuzz: ${options.url} (form ${options.form ?? 'both'})\n`);
  const result = await runReceiverFuzz({
    ...options,
    onResult: (r) => process.stdout.write(`${formatPropertyLine(r, options.strict)}\n`),
  });
  process.stdout.write(`${formatReceiverFuzzReport(result)}\n`);
  writeJson(jsonFile, result);
  return result.passed ? 0 : 1;
}

async function receiver(values: Values): Promise<number> {
  if (!values.url) throw new Error('fuzz receiver: --url URL is required');
  if (!values['secret-env'])
    throw new Error(
      'fuzz receiver: --secret-env NAME is required (the secret is never taken on the command line)',
    );
  const secret = process.env[values['secret-env']];
  if (!secret)
    throw new Error(
      `fuzz receiver: environment variable ${values['secret-env']} is not set or empty`,
    );
  return fuzzReceiver(
    { url: values.url, secret, secretLabel: `$${values['secret-env']}`, ...bounds(values) },
    values.json,
  );
}

async function exampleReceiver(values: Values, wiring: FuzzWiring): Promise<number> {
  const secret = randomBytes(24).toString('base64url');
  const b = bounds(values);
  return withLocalReceiver(wiring.exampleReceiver({ secret }), (url) =>
    fuzzReceiver(
      { url, secret, ...b, rate: values.rate ? b.rate : Number.POSITIVE_INFINITY },
      values.json,
    ),
  );
}

async function verifier(): Promise<number> {
  process.stdout.write(
    `signature verifier properties: ${SIGNATURE_RULES.length} rules, both forms\n`,
  );
  const results = await runSignatureProperties((r) => {
    process.stdout.write(`${r.passed ? 'ok  ' : 'FAIL'} ${r.rule} > ${r.form}\n`);
    if (r.error) process.stdout.write(`${r.error.replace(/^/gm, '     ')}\n`);
  });
  const failed = results.filter((r) => !r.passed).length;
  process.stdout.write(`signature verifier: ${results.length - failed} held, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

export async function run(argv: string[], wiring: FuzzWiring): Promise<number> {
  const first = argv[0];
  const sub = first !== undefined && !first.startsWith('-') ? first : undefined;
  if (sub !== undefined && !(sub in SUBCOMMANDS))
    throw new UsageError(`unknown fuzz subcommand '${sub}'`, usageText(spec));
  const args = sub === undefined ? argv : argv.slice(1);
  switch (sub) {
    case 'verifier':
      return parseCommand(SUBCOMMANDS.verifier, args) ? verifier() : 0;
    case 'receiver': {
      const p = parseCommand(SUBCOMMANDS.receiver, args);
      return p ? receiver(p.values) : 0;
    }
    case 'example-receiver': {
      const p = parseCommand(SUBCOMMANDS['example-receiver'], args);
      return p ? exampleReceiver(p.values, wiring) : 0;
    }
    case 'deliveries': {
      const p = parseCommand(SUBCOMMANDS.deliveries, args);
      return p ? deliveriesCommand(p.values, wiring.start) : 0;
    }
    case 'api-input': {
      const p = parseCommand(SUBCOMMANDS['api-input'], args);
      return p ? apiInputCommand(p.values, wiring.start) : 0;
    }
    default: {
      const p = parseCommand(spec, args);
      if (!p) return 0;
      const a = await verifier();
      const b = await exampleReceiver(p.values, wiring);
      // The configured target (HARNESS_BASE_URL, else the embedded deployment); --json belongs
      // to the receiver fuzz in this mode.
      const deployment = { ...p.values, json: undefined };
      const notRun = deliveriesNotRun(deployment);
      if (notRun) process.stdout.write(`webhook delivery check: ${notRun}\n`);
      const c = notRun ? 0 : await deliveriesCommand(deployment, wiring.start);
      const d = await apiInputCommand(deployment, wiring.start);
      return Math.max(a, b, c, d);
    }
  }
}
