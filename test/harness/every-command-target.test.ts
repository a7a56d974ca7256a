/**
 * Every command that sends to a deployment picks its target from the one configuration
 * (core/config.ts): HARNESS_BASE_URL and the keys from the environment or `--env-file`, `--url`
 * over them (else `harness fuzz api-input` with HARNESS_BASE_URL set could fuzz the embedded
 * deployment and say PASS). Each command runs as its own process against reference deployments
 * started by `harness serve` as separate processes, reached only through those variables; the
 * traffic went there when the command finds what only that deployment does.
 *
 *   faulty: the reading U5=create-200 (the API input fuzz warns: an assumed status rule) and the
 *           fault signature-uppercase (the delivery check fails: a documented rule)
 *   limits: burst-150, its clock 10× (the load checks, their schedule 10× shorter)
 *
 * `harness run` with HARNESS_BASE_URL is covered the same way by gate.test.ts and
 * repro-replay.test.ts (its `--url` here); `serve`, `diff-spec` and `compare` send to no deployment.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runHarnessCommand, serveReference, STACK_FRAME, stopAll } from './gate-processes.ts';

type Served = Awaited<ReturnType<typeof serveReference>>;
let faulty: Served;
let limits: Served;
const dir = mkdtempSync(join(tmpdir(), 'harness-every-command-'));

before(async () => {
  [faulty, limits] = await Promise.all([
    serveReference(['signature-uppercase'], ['--reading', 'U5=create-200', '--api-plan', 'growth']),
    serveReference(['burst-150'], ['--time-scale', '10']),
  ]);
});
after(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

/** What only the faulty deployment answers: a creation with 200 (U5=create-200). */
const CREATE_200 =
  /\[exchange\.documented-status\] \d+ cases?, the shortest: 200 from POST \/v1\/tickets/;

/** The target's variables only (what a CI job would set): base URL and keys. */
const onlyTarget = (s: Served, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, s.vars[n]!]));

describe('each command targets HARNESS_BASE_URL, --env-file and --url alike', {
  timeout: 300_000,
}, () => {
  test('fuzz api-input: HARNESS_BASE_URL, not the embedded deployment', async () => {
    const r = await runHarnessCommand(
      ['fuzz', 'api-input', '--cases', '10'],
      onlyTarget(faulty, ['HARNESS_BASE_URL', 'HARNESS_API_KEY']),
    );
    // An assumed rule: a warning, not a failure (exit 0) — seen only on that deployment.
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stdout.startsWith(`api input fuzz: ${faulty.baseUrl}\n`), r.stdout);
    assert.match(r.stdout, CREATE_200);
    assert.ok(!r.stdout.includes(faulty.vars.HARNESS_API_KEY!), 'key not printed');
  });

  test('fuzz api-input --env-file: the same target from the file', async () => {
    const r = await runHarnessCommand(
      ['fuzz', 'api-input', '--cases', '10', '--env-file', faulty.envFile],
      {},
    );
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stdout.startsWith(`api input fuzz: ${faulty.baseUrl}\n`), r.stdout);
    assert.match(r.stdout, CREATE_200);
  });

  test('fuzz api-input --url wins over HARNESS_BASE_URL', async () => {
    // The correct deployment (no API fault) named by --url, its key by --api-key-env.
    const r = await runHarnessCommand(
      ['fuzz', 'api-input', '--cases', '10', '--url', limits.baseUrl, '--api-key-env', 'OTHER'],
      {
        ...onlyTarget(faulty, ['HARNESS_BASE_URL', 'HARNESS_API_KEY']),
        OTHER: limits.vars.HARNESS_API_KEY!,
      },
    );
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stdout.startsWith(`api input fuzz: ${limits.baseUrl}\n`), r.stdout);
    assert.match(r.stdout, /api input fuzz: PASS/);
    assert.doesNotMatch(r.stdout, CREATE_200);
  });

  test('fuzz deliveries: HARNESS_BASE_URL with its admin token', async () => {
    const r = await runHarnessCommand(
      ['fuzz', 'deliveries', '--cases', '3'],
      onlyTarget(faulty, ['HARNESS_BASE_URL', 'HARNESS_API_KEY', 'HARNESS_ADMIN_TOKEN']),
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stdout.startsWith(`webhook delivery check: ${faulty.baseUrl}\n`), r.stdout);
    assert.match(r.stdout, /webhook delivery check: FAIL/);
  });

  test('fuzz (every part): its deployment checks target HARNESS_BASE_URL', async () => {
    const r = await runHarnessCommand(
      ['fuzz', '--cases', '5'],
      onlyTarget(faulty, ['HARNESS_BASE_URL', 'HARNESS_API_KEY', 'HARNESS_ADMIN_TOKEN']),
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stdout.includes(`webhook delivery check: ${faulty.baseUrl}\n`), r.stdout);
    assert.ok(r.stdout.includes(`api input fuzz: ${faulty.baseUrl}\n`), r.stdout);
    assert.match(r.stdout, /webhook delivery check: FAIL/);
    assert.match(r.stdout, CREATE_200);
  });

  test('fuzz without a way to subscribe the receiver: deliveries listed as not run', async () => {
    const r = await runHarnessCommand(
      ['fuzz', '--cases', '3'],
      onlyTarget(limits, ['HARNESS_BASE_URL', 'HARNESS_API_KEY']),
    );
    assert.match(
      r.stdout,
      /^webhook delivery check: not run: needs HARNESS_ADMIN_TOKEN, or HARNESS_WEBHOOK_URL/m,
    );
    assert.ok(r.stdout.includes(`api input fuzz: ${limits.baseUrl}\n`), r.stdout);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  });

  test('load: HARNESS_BASE_URL and HARNESS_TEAM_KEYS; its own report folder, emptied first', async () => {
    // The folder of an earlier run (the harness's mark, a report of that run).
    const out = join(dir, 'load');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, '.harness-output'), 'written by harness run\n');
    writeFileSync(join(out, 'summary.json'), '{}\n');
    const r = await runHarnessCommand(
      ['load', '--plan', 'team', '--engine', 'node', '--time-scale', '10', '--out', out],
      onlyTarget(limits, ['HARNESS_BASE_URL', 'HARNESS_TEAM_KEYS']),
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^load: ${limits.baseUrl}$`, 'm'));
    const line = r.stdout.split('\n').find((l) => l.startsWith('team'));
    assert.ok(line, r.stdout);
    // burst-150: B̂ far below the plan's 200 — that deployment's bucket, not the embedded one's.
    const b = Number(/B̂ ([\d.]+)/.exec(line)?.[1]);
    assert.ok(b > 130 && b < 175, line);
    assert.match(line, /FAIL: [^\n]*\bburst\b/);
    assert.ok(r.stdout.includes(`reports in ${out}/: load-team.json, load-team.svg\n`), r.stdout);
    assert.ok(!r.stdout.includes('<plan>'), 'no placeholder');
    assert.ok(!existsSync(join(out, 'summary.json')), 'the earlier run’s report is gone');
    assert.deepEqual(readdirSync(out).sort(), [
      '.harness-output',
      'load-team.json',
      'load-team.svg',
    ]);
  });

  test('run --url wins over HARNESS_BASE_URL, down to the contract suite’s workers', async () => {
    // HARNESS_BASE_URL names the faulty deployment, the keys are the other's: only --url works.
    const env = {
      ...onlyTarget(limits, ['HARNESS_API_KEY', 'HARNESS_READONLY_KEY']),
      HARNESS_BASE_URL: faulty.baseUrl,
      HARNESS_BASELINE: 'off',
    };
    const out = join(dir, 'run');
    const args = ['run', '--grep', '@ticket.created-status-open', '--out', out];
    const r = await runHarnessCommand([...args, '--url', limits.baseUrl], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stderr.includes(`: target ${limits.baseUrl}\n`), r.stderr);
    assert.match(r.stdout, /^contracts\s+PASS/m);
    // Without it, HARNESS_BASE_URL: the faulty deployment refuses the other's key.
    const without = await runHarnessCommand(args, env);
    assert.equal(without.code, 2, without.stdout);
    assert.match(without.stdout, /key refused|401/);
  });

  test('detect: refuses a HARNESS_BASE_URL it cannot test, in one line, exit 2', async () => {
    const r = await runHarnessCommand(['detect'], onlyTarget(faulty, ['HARNESS_BASE_URL']));
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^harness detect: detect runs the fault catalogue on the embedded reference deployment; HARNESS_BASE_URL \(http:\/\/127\.0\.0\.1:\d+\) cannot be tested this way/,
    );
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, STACK_FRAME);
  });
});
