/**
 * `harness fuzz [verifier | receiver | example-receiver] [options]`
 *
 * - `verifier`: the in-process fast-check properties of the signature module (fuzz/signature).
 * - `receiver --url URL --secret-env NAME [--form prefixed|plain|both] [--cases N] [--max-seconds N]
 *   [--rate N] [--seed N] [--only a,b] [--strict] [--json FILE]`: black-box fuzz of any webhook
 *   receiver; assumed properties are warnings unless `--strict`.
 * - `example-receiver [same bounds]`: the receiver fuzz against examples/receiver on loopback,
 *   a self-check that must always pass.
 * - `deliveries [--url URL] [--cases N] [--max-seconds N] [--seed N] [--json FILE]`: the webhook
 *   delivery check (fuzz/deliveries/delivery-check.ts); without `--url`, the embedded deployment.
 * - `api-input [--url URL] [same bounds]`: the API input fuzz (fuzz/api-input/api-input.ts).
 * - no subcommand: `verifier`, `example-receiver`, then `deliveries` and `api-input` against the
 *   embedded deployment (what `npm run fuzz` needs from this area).
 *
 * Exit status: 0 no documented property failed (no assumed one either, with --strict), 1 one
 * did, 2 misuse.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { positiveNumber } from '../positive-number.ts';
import { createReceiver } from '../../../examples/receiver/receiver.ts';
import { apiInputCommand, deliveriesCommand } from '../fuzz-deployment.ts';
import { runSignatureProperties, SIGNATURE_RULES } from '../../../fuzz/signature/index.ts';
import { redactValue } from '../../redact.ts';
import {
  formatPropertyLine,
  formatReceiverFuzzReport,
  type ReceiverFuzzOptions,
  runReceiverFuzz,
} from '../../../fuzz/receiver/index.ts';

const USAGE = `usage: harness fuzz [verifier | receiver | example-receiver] [options]

  verifier                 in-process signature properties (both header forms)
  receiver                 black-box fuzz of a webhook receiver:
    --url URL              receiver endpoint (http or https)            (required)
    --secret-env NAME      env variable holding its signing secret      (required)
    --form F               prefixed | plain | both                      (default both)
    --cases N              cases per property                           (default 50)
    --max-seconds N        wall-clock budget of the run                 (default 120)
    --rate N               most requests per second                     (default 50)
    --seed N               fast-check seed                              (default FC_SEED or fixed)
    --only A,B             run only these properties
    --strict               assumed properties fail too (default: warnings)
    --json FILE            also write the result as JSON (secrets redacted)
  example-receiver         the receiver fuzz against examples/receiver on 127.0.0.1
                           (accepts --cases, --max-seconds, --rate, --seed, --json)
  deliveries               webhook deliveries verified over the received bytes, per form:
    --url URL              deployment (default: the embedded reference deployment)
    --api-key-env NAME     env variable with a full-access key      (default HARNESS_API_KEY)
    --admin-token-env NAME env variable with the admin token        (default HARNESS_ADMIN_TOKEN)
    --endpoints FILE       endpoints set up in the deployment's dashboard (no admin token
                           needed; secrets from each secret_env)  (default HARNESS_WEBHOOK_ENDPOINTS)
    --receiver-listen H:P  where the capture receiver listens   (default HARNESS_WEBHOOK_LISTEN
                                                                 or 127.0.0.1:0)
    --receiver-host H      interface of the capture receiver        (default 127.0.0.1)
    --receiver-url URL     URL under which the deployment reaches it (default: its address;
                           with --endpoints: HARNESS_WEBHOOK_URL)
    --fault A,B            faults of the embedded deployment
    --cases N              scenarios                                 (default 25)
    (also --max-seconds, --seed, --json)
  api-input                schema-derived valid and invalid bodies for create, update, message:
                           --url, --api-key-env, --fault, --cases (per operation, default 100),
                           --max-seconds, --seed, --json
  (none)                   verifier, example-receiver, then deliveries and api-input (embedded)
`;

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'secret-env': { type: 'string' },
      form: { type: 'string', default: 'both' },
      cases: { type: 'string' },
      'max-seconds': { type: 'string' },
      rate: { type: 'string' },
      seed: { type: 'string' },
      only: { type: 'string' },
      json: { type: 'string' },
      strict: { type: 'boolean' },
      'api-key-env': { type: 'string' },
      'admin-token-env': { type: 'string' },
      'receiver-host': { type: 'string' },
      'receiver-url': { type: 'string' },
      'receiver-listen': { type: 'string' },
      endpoints: { type: 'string' },
      fault: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

type Values = ReturnType<typeof parse>['values'];

function bounds(values: Values): Omit<ReceiverFuzzOptions, 'url' | 'secret'> {
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed))
    throw new Error(`--seed must be an integer (got '${values.seed}')`);
  const form = values.form as string;
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
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(redactValue(result), null, 2)}\n`);
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

async function exampleReceiver(values: Values): Promise<number> {
  const secret = randomBytes(24).toString('base64url');
  const server = createReceiver({ secret });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const b = bounds(values);
    return await fuzzReceiver(
      {
        url: `http://127.0.0.1:${port}/webhook`,
        secret,
        ...b,
        rate: values.rate ? b.rate : Number.POSITIVE_INFINITY,
      },
      values.json,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
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

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [sub, ...extra] = positionals;
  if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(' ')}`);
  switch (sub) {
    case 'verifier':
      return verifier();
    case 'receiver':
      return receiver(values);
    case 'example-receiver':
      return exampleReceiver(values);
    case 'deliveries':
      return deliveriesCommand(values);
    case 'api-input':
      return apiInputCommand(values);
    case undefined: {
      const a = await verifier();
      const b = await exampleReceiver(values);
      // The embedded deployment only; --json belongs to the receiver fuzz in this mode.
      const embedded = { ...values, url: undefined, json: undefined };
      const c = await deliveriesCommand(embedded);
      const d = await apiInputCommand(embedded);
      return Math.max(a, b, c, d);
    }
    default:
      throw new Error(`unknown fuzz subcommand '${sub}'\n\n${USAGE}`);
  }
}
