/**
 * `harness fuzz api-input` and `harness fuzz deliveries` against a deployment given by URL, with
 * the secrets read from environment variables, and their misuse errors (through `run`, as the CLI
 * dispatches them). Output is collected through the commands' print hook: the test runner owns
 * this process's stdout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningService, startService } from '../../server/start.ts';
import { parseArgs } from 'node:util';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import { run as fuzzCommand } from '../../fuzz/command.ts';
import { apiInputCommand, deliveriesCommand } from '../../fuzz/deployment-command.ts';

const run = (argv: string[]) =>
  fuzzCommand(argv, { start: startService, exampleReceiver: createReceiver });

describe('harness fuzz api-input / deliveries --url', () => {
  let svc: RunningService;
  const saved = { ...process.env };

  before(async () => {
    svc = await startService({
      webhookRetryDelaysMs: [20],
      enterprise: { ratePerMin: 1_000_000, burst: 1_000_000 },
    });
    process.env.FUZZ_TEST_KEY = svc.credentials.workspaces.enterprise.keys.full;
    process.env.FUZZ_TEST_ADMIN = svc.credentials.adminToken;
  });
  after(async () => {
    process.env = saved;
    await svc?.close();
  });

  /** Runs a subcommand with its output collected. */
  async function capture(argv: string[]): Promise<{ code: number; text: string }> {
    const [sub, ...rest] = argv;
    const { values } = parseArgs({
      args: rest,
      options: Object.fromEntries(
        ['url', 'api-key-env', 'admin-token-env', 'cases', 'fault'].map((k) => [
          k,
          { type: 'string' },
        ]),
      ) as Record<string, { type: 'string' }>,
    });
    const out: string[] = [];
    const command = sub === 'deliveries' ? deliveriesCommand : apiInputCommand;
    const code = await command(values, startService, (t) => out.push(t));
    return { code, text: out.join('') };
  }

  test('api-input passes against the correct deployment, key never printed', async () => {
    const { code, text } = await capture([
      'api-input',
      '--url',
      svc.baseUrl,
      '--api-key-env',
      'FUZZ_TEST_KEY',
      '--cases',
      '10',
    ]);
    assert.equal(code, 0, text);
    assert.match(text, /api input fuzz: PASS/);
    assert.ok(!text.includes(process.env.FUZZ_TEST_KEY ?? '\0'), 'key not printed');
  });

  test('deliveries passes against the correct deployment, secrets never printed', async () => {
    const { code, text } = await capture([
      'deliveries',
      '--url',
      svc.baseUrl,
      '--api-key-env',
      'FUZZ_TEST_KEY',
      '--admin-token-env',
      'FUZZ_TEST_ADMIN',
      '--cases',
      '3',
    ]);
    assert.equal(code, 0, text);
    assert.match(text, /webhook delivery check: PASS/);
    assert.ok(!text.includes(svc.credentials.adminToken), 'admin token not printed');
  });

  test('misuse: an unset key variable, a fault with --url, a bad --cases', async () => {
    await assert.rejects(
      run(['api-input', '--url', svc.baseUrl, '--api-key-env', 'FUZZ_TEST_UNSET_VAR']),
      /FUZZ_TEST_UNSET_VAR is not set/,
    );
    await assert.rejects(
      run(['deliveries', '--url', svc.baseUrl, '--fault', 'signature-uppercase']),
      /--fault applies to the embedded deployment only/,
    );
    await assert.rejects(
      run(['api-input', '--url', svc.baseUrl, '--api-key-env', 'FUZZ_TEST_KEY', '--cases', '0']),
      /--cases must be a positive integer/,
    );
  });
});
