/**
 * `npm run serve [-- --port N --fault a,b --time-scale N]`: the reference deployment on
 * 127.0.0.1 until Ctrl-C. Prints the base URL and the path of the credentials file, never a key.
 *
 * Dashboard mode, as a real deployment: `--no-admin --webhook-endpoints FILE [--webhook-url URL]`
 * seeds the endpoints of FILE (the harness's HARNESS_WEBHOOK_ENDPOINTS format) under URL (default
 * $HARNESS_WEBHOOK_URL, else http://127.0.0.1:8099) and serves no /admin. The credentials env file
 * then also holds the webhook variables (and, for a loopback URL, HARNESS_WEBHOOK_LISTEN), so
 * `npm start -- --env-file FILE` needs nothing else. `--webhook-retry-delays 100,200,…` sets this
 * deployment's own retry schedule (ms), e.g. a fast one for tests.
 */
import { chmodSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CommandSpec, parseCommand } from '../../core/cli/command-spec.ts';
import { isLoopbackHost } from '../../core/net.ts';
import { envVar } from '../../core/variables.ts';
import { seedDashboardEndpoints } from '../../server/dashboard-endpoints.ts';
import { writeCredentialsFiles } from '../../server/credentials-file.ts';
import { FAULTS } from '../../server/faults.ts';
import { otherReadings, READINGS, selectReadings } from '../../server/readings/index.ts';
import { startService } from '../../server/start.ts';

/** The command line of `npm run serve` / `harness serve` (core/cli/command-spec.ts). */
export const spec = {
  name: 'serve',
  summary:
    'The reference deployment on loopback until Ctrl-C: every operation of the spec, the three plans, rotatable keys, signed webhooks; prints its base URL and the path of a 0600 credentials file (never a key).',
  about: [
    'Dashboard mode, as a real deployment: --no-admin --webhook-endpoints FILE seeds the endpoints',
    'of FILE under --webhook-url and serves no /admin; the credentials env file then holds the',
    'webhook variables too, so `npm start -- --env-file FILE` needs nothing else.',
  ],
  options: {
    port: { type: 'string', arg: 'N', default: '8080', help: 'port (0: any free one)' },
    host: {
      type: 'string',
      arg: 'HOST',
      default: '127.0.0.1',
      help: 'loopback interface: 127.0.0.1, ::1 or localhost',
    },
    fault: {
      type: 'string',
      arg: 'a,b',
      multiple: true,
      help: 'faults to switch on (repeatable; --list-faults shows the catalogue)',
    },
    'time-scale': {
      type: 'string',
      arg: 'N',
      default: '1',
      help: 'the deployment’s clock runs N× real time',
    },
    'list-faults': { type: 'boolean', help: 'print the fault catalogue and exit' },
    'no-admin': { type: 'boolean', help: 'dashboard mode: no /admin surface' },
    'webhook-endpoints': {
      type: 'string',
      arg: 'FILE',
      help: 'endpoints to seed (the HARNESS_WEBHOOK_ENDPOINTS format)',
    },
    'webhook-url': {
      type: 'string',
      arg: 'URL',
      help: 'where seeded endpoints deliver (default HARNESS_WEBHOOK_URL, else http://127.0.0.1:8099)',
    },
    'webhook-retry-delays': {
      type: 'string',
      arg: 'MS,MS,…',
      help: 'this deployment’s own webhook retry schedule, e.g. 100,200,400',
    },
    'ready-line': {
      type: 'boolean',
      help: 'first print one JSON line {"baseUrl","envFile","credentialsFile"} once listening (for programs that start serve)',
    },
    'env-out': {
      type: 'string',
      arg: 'FILE',
      help: 'also write the credentials env file (0600) to FILE — an embedded run’s report says `--env-out .harness-replay.env`, then `set -a; . ./.harness-replay.env; set +a` to replay its repros',
    },
    reading: {
      type: 'string',
      arg: 'U<n>=…',
      multiple: true,
      help: 'answer a gap of the docs otherwise than we assume, as a correct deployment may (repeatable, a,b; `other`: every reading at once; --list-readings shows them): the gate still passes, reporting assumption mismatches',
    },
    'list-readings': { type: 'boolean', help: 'print the readings catalogue and exit' },
    'seed-tickets': {
      type: 'string',
      arg: 'N',
      help: 'a long-lived deployment: N old tickets per workspace, every status, odd content (emoji, RTL, NUL and control characters, pasted logs, a few 300 KB one-word subjects and 2000-tag lists)',
    },
    seed: {
      type: 'string',
      arg: 'N',
      default: '1',
      help: 'seed of the --seed-tickets content (the same seed, the same tickets)',
    },
    'api-plan': {
      type: 'string',
      arg: 'team|growth',
      default: 'team',
      help: 'plan of the workspace whose keys the credentials file gives as HARNESS_API_KEY / HARNESS_READONLY_KEY (and where --webhook-endpoints are seeded)',
    },
  },
  env: ['HARNESS_WEBHOOK_URL'],
  examples: [
    'npm run serve',
    'npm run serve -- --fault burst-201 --port 0',
    'npm run serve -- --no-admin --webhook-endpoints examples/webhook-endpoints.yaml',
    'npm run serve -- --list-faults',
    'npm run serve -- --reading U26=no-limits,U6=ignore-wrong-types --seed-tickets 3000',
    'npm run serve -- --reading other   # every gap read otherwise than we assume, all at once',
    'npm run serve -- --list-readings',
    'npm run serve -- --api-plan growth   # the gate’s keys on Growth (600/min, burst 1000)',
    'npm run serve -- --fault create-200 --port 0 --env-out .harness-replay.env',
  ],
  exit0: 'stopped with Ctrl-C (or --list-faults printed)',
  exit1: 'not used: a deployment that cannot start is exit 2',
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const values = {
    ...parsed.values,
    port: parsed.values.port ?? '8080',
    host: parsed.values.host ?? '127.0.0.1',
    fault: parsed.values.fault ?? [],
    'time-scale': parsed.values['time-scale'] ?? '1',
  };
  if (values['list-faults']) {
    for (const f of FAULTS) console.log(`${f.name.padEnd(34)} ${f.area.padEnd(9)} ${f.does}`);
    return 0;
  }
  if (values['list-readings']) {
    const inOther = new Set(otherReadings());
    for (const r of READINGS)
      console.log(`${r.name.padEnd(34)} ${inOther.has(r) ? 'other' : '     '}  ${r.does}`);
    return 0;
  }
  const readings = selectReadings((parsed.values.reading ?? []).flatMap((r) => r.split(',')));
  if (!['127.0.0.1', '::1', 'localhost'].includes(values.host)) {
    throw new Error(
      `--host must be a loopback address (127.0.0.1, ::1, localhost), got '${values.host}'`,
    );
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, got '${values.port}'`);
  const timeScale = Number(values['time-scale']);
  const faults = values.fault.flatMap((f) => f.split(','));
  let retryDelays: number[] | undefined;
  if (values['webhook-retry-delays']) {
    retryDelays = values['webhook-retry-delays'].split(',').map(Number);
    if (retryDelays.some((d) => !Number.isInteger(d) || d < 1))
      throw new Error(
        `--webhook-retry-delays must be comma-separated positive ms, got '${values['webhook-retry-delays']}'`,
      );
  }
  const seedTickets = countOption('--seed-tickets', parsed.values['seed-tickets'] ?? '0');
  const seed = countOption('--seed', parsed.values.seed ?? '1');
  const apiPlan = parsed.values['api-plan'] ?? 'team';
  if (apiPlan !== 'team' && apiPlan !== 'growth')
    throw new Error(`--api-plan must be team or growth, got '${apiPlan}'`);
  const endpointsFile = values['webhook-endpoints'];
  // The receiver's fixed loopback address the README's local walk-through uses.
  const webhookUrl =
    values['webhook-url'] ?? envVar('HARNESS_WEBHOOK_URL') ?? 'http://127.0.0.1:8099';
  const listen = endpointsFile ? loopbackListen(webhookUrl) : undefined;
  const admin = !values['no-admin'];
  const svc = await startService({
    port,
    host: values.host,
    faults,
    timeScale,
    admin,
    webhookRetryDelaysMs: retryDelays,
    readings: readings.map((r) => r.name),
    seedTickets,
    seedTicketsSeed: seed,
  });
  const envLines: string[] = [];
  if (endpointsFile) {
    const seeded = seedDashboardEndpoints(svc.ctx.dispatcher, {
      file: endpointsFile,
      publicUrl: webhookUrl,
      workspaceId: svc.credentials.workspaces[apiPlan].id,
      env: process.env,
    });
    envLines.push(
      `HARNESS_WEBHOOK_URL=${webhookUrl}`,
      ...(listen ? [`HARNESS_WEBHOOK_LISTEN=${listen}`] : []),
      `HARNESS_WEBHOOK_ENDPOINTS=${resolve(endpointsFile)}`,
      ...seeded.envLines,
    );
    console.log(`Webhook endpoints from ${endpointsFile}: ${seeded.count}, under ${webhookUrl}`);
  }
  const files = writeCredentialsFiles(svc.baseUrl, svc.credentials, {
    admin,
    lines: envLines,
    apiPlan,
  });
  const envOut = parsed.values['env-out'];
  if (envOut) copyPrivate(files.env, envOut);
  if (values['ready-line'])
    console.log(
      JSON.stringify({ baseUrl: svc.baseUrl, envFile: files.env, credentialsFile: files.json }),
    );
  console.log(`Support Ticketing Service (reference deployment) listening on ${svc.baseUrl}`);
  console.log(`Seeded credentials (mode 0600): ${files.json}`);
  console.log(`  as an env file for the harness:  npm start -- --env-file ${files.env}`);
  if (envOut)
    console.log(
      `  also in ${envOut}; to replay a report's repros: set -a; . ${envOut.startsWith('/') ? '' : './'}${envOut}; set +a`,
    );
  if (faults.length > 0) console.log(`Faults on: ${svc.ctx.faults.list().join(', ')}`);
  if (!admin) console.log('Dashboard mode: no /admin surface.');
  if (timeScale !== 1) console.log(`Clock runs ${timeScale}x real time.`);
  if (readings.length > 0)
    console.log(
      `Readings on (gaps answered otherwise than we assume): ${readings.map((r) => r.name).join(', ')}`,
    );
  if (svc.seeded)
    console.log(
      `Long-lived: ${svc.seeded.total} old tickets (${seedTickets} per workspace, ${svc.seeded.huge} with a 300 KB subject each; seed ${seed}) written in ${svc.seeded.ms} ms.`,
    );
  console.log('Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    // `on`, not `once`: Ctrl-C on `npm run serve` delivers SIGINT twice (the terminal's, and
    // npm's forwarded copy, since the npm scripts exec node), and the second must not kill the close.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await svc.close();
  return 0;
}

/**
 * `from` copied to `to`, readable by the owner only — chmod too, since an existing file keeps its
 * mode on write — and never through a symlink someone left there.
 */
function copyPrivate(from: string, to: string): void {
  try {
    if (lstatSync(to).isSymbolicLink()) unlinkSync(to);
  } catch {
    // absent: written fresh
  }
  writeFileSync(to, readFileSync(from), { mode: 0o600 });
  chmodSync(to, 0o600);
}

/** A whole number ≥ 0 given on the command line. */
function countOption(name: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n))
    throw new Error(`${name} must be a whole number ≥ 0, got '${raw}'`);
  return n;
}

/** host:port the harness must listen on when `url` is on loopback (else the user's tunnel decides). */
function loopbackListen(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--webhook-url must be an http(s) URL, got '${url}'`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`--webhook-url must be an http(s) URL, got '${url}'`);
  if (!isLoopbackHost(u.hostname)) return undefined;
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
}
