/**
 * Webhooks on a deployment without the admin surface, as a real staging service: the reference
 * deployment in dashboard mode (`npm run serve -- --no-admin --webhook-endpoints FILE`) started
 * as a separate process and reached only through HARNESS_* variables; the harness's one capture
 * receiver listens on a port picked now (HARNESS_WEBHOOK_LISTEN) that the deployment was given
 * as the public URL. A correct deployment passes the contract suite and the delivery fuzz; a
 * receiver nobody can reach is diagnosed as such. That each webhook fault fails its named check
 * in this mode is the detection matrix's dashboard column (test/harness/detection.test.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import { deliveryFailures } from '../../fuzz/deliveries/failures.ts';
import type { DeliveryCheckResult } from '../../fuzz/deliveries/types.ts';
import { deliveriesCommand } from '../../fuzz/deployment-command.ts';
import { DASHBOARD_ENDPOINTS, exampleSecrets } from '../../run/detection-dashboard.ts';
import { type Area, runAll } from '../../run/run-all.ts';
import { freePort } from '../../core/net.ts';
import { serveDashboard, type ServedDeployment } from '../../run/serve-process.ts';

/**
 * A dashboard-mode deployment delivering to a receiver URL on a port picked now, with `switches`
 * on: faults, and readings (a name with `=`, server/readings/).
 */
async function withDeployment<T>(
  switches: string[],
  fn: (svc: ServedDeployment, env: Record<string, string>) => Promise<T>,
  endpointsFile = DASHBOARD_ENDPOINTS,
  apiPlan?: 'team' | 'growth',
): Promise<T> {
  const port = await freePort();
  const secrets = exampleSecrets();
  const svc = await serveDashboard({
    endpointsFile,
    webhookUrl: `http://127.0.0.1:${port}`,
    faults: switches.filter((n) => !n.includes('=')),
    readings: switches.filter((n) => n.includes('=')),
    env: secrets,
    ...(apiPlan ? { apiPlan } : {}),
  });
  try {
    // What a user has: the variables of the env file serve wrote (secrets included), nothing else.
    return await fn(svc, { ...svc.vars, HARNESS_WEBHOOK_RETRY_WAIT_MS: '5000' });
  } finally {
    await svc.stop();
  }
}

function harnessRun(env: Record<string, string>, grep?: string, skip: Area[] = ['load', 'fuzz']) {
  return runAll({
    outDir: join(mkdtempSync(join(tmpdir(), 'harness-dashboard-')), 'latest'),
    skip,
    grep,
    verbose: false,
    log: () => {},
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
}

/** `harness fuzz deliveries --url …` with `env` as the process environment, output captured. */
async function fuzzDeliveries(env: Record<string, string>, cases: string, json?: string) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let out = '';
  try {
    const code = await deliveriesCommand(
      { url: env.HARNESS_BASE_URL, cases, 'max-seconds': '60', seed: '42', json },
      undefined,
      (t) => {
        out += t;
      },
    );
    return { code, out };
  } finally {
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

test('dashboard mode: a correct deployment passes the contract suite and the delivery fuzz without the admin surface', {
  timeout: 300_000,
}, async () => {
  await withDeployment([], async (svc, env) => {
    assert.equal(env.HARNESS_ADMIN_TOKEN, undefined, 'dashboard mode gives no admin token');
    assert.equal((await fetch(`${svc.baseUrl}/admin/webhooks`)).status, 404, 'no /admin');
    assert.match(
      env.HARNESS_WEBHOOK_LISTEN ?? '',
      /^127\.0\.0\.1:\d+$/,
      'serve says where to listen',
    );

    // Gated on behaviour changes against the reference baseline too: a correct deployment
    // behaves as the reference one did, so the gate passes (only INFO coverage findings).
    const { summary, exitCode } = await harnessRun({ ...env, HARNESS_COMPAT_FAIL_ON: 'ERR' });
    const c = summary.areas.contracts!;
    const compat = summary.areas.compatibility!;
    assert.notEqual(compat.verdict, 'fail', compat.headline);
    assert.deepEqual(compat.documentedFailures, [], compat.headline);
    assert.match(compat.headline, /gating at ERR/);
    assert.equal(summary.target.embedded, false, 'the target came from the environment');
    assert.deepEqual(c.documentedFailures, [], 'no documented failure');
    assert.deepEqual(c.assumptionMismatches, [], 'no assumption mismatch');
    assert.equal(exitCode, 0, c.headline);
    // Without /admin only sla.at_risk (no clock to advance), key rotation and a workspace of
    // one request a minute (a 429 to judge) are out of reach, and HTTPS delivery without an
    // HTTPS public URL, each said so: every other webhook test runs (events, forms, selection,
    // retries).
    const notRun = c.notRun.map((n) => `${n.name}: ${n.reason}`);
    assert.equal(notRun.length, 4, notRun.join('\n'));
    assert.ok(
      notRun.some((n) => /refused for its rate.*HARNESS_ADMIN_TOKEN/.test(n)),
      notRun.join('\n'),
    );
    assert.ok(
      notRun.some((n) => /HTTPS.*HARNESS_WEBHOOK_URL.*plain HTTP/.test(n)),
      notRun.join('\n'),
    );
    assert.ok(
      notRun.some((n) => /sla\.at_risk.*clock/.test(n)),
      notRun.join('\n'),
    );
    assert.ok(
      notRun.some((n) => /rotat.*HARNESS_ADMIN_TOKEN/.test(n)),
      notRun.join('\n'),
    );
    const checks = new Map(summary.checks.map((x) => [x.name, x]));
    for (const name of [
      'webhook.event-delivered',
      'webhook.signature-valid',
      'webhook.signature-form',
      'webhook.only-chosen-events',
      'webhook.payload-schema',
      'webhook.content-type',
      'webhook.retried-after-5xx',
      // Every delivery of the run against what it is about (contracts/delivery-sweep.ts).
      'webhook.workspace-isolated',
      'webhook.event-caused',
      'webhook.ticket-matches-api',
      'webhook.customer-is-requester',
      'webhook.about-run-ticket',
    ])
      assert.ok((checks.get(name)?.passed ?? 0) > 0, `${name} evaluated and passed`);

    const fuzz = await fuzzDeliveries(env, '3');
    assert.equal(fuzz.code, 0, fuzz.out);
    assert.match(fuzz.out, /4 endpoints configured in its dashboard/);
    assert.match(fuzz.out, /endpoint \/hook\/subset: [1-9]\d* deliveries, \d+ ok, 0 failed/);
    assert.match(fuzz.out, /endpoint \/hook\/plain: [1-9]/);
  });
});

test('dashboard mode: the delivery fuzz catches a wrong signature without the admin surface', {
  timeout: 120_000,
}, async () => {
  await withDeployment(['signature-reserialized'], async (_svc, env) => {
    const fuzz = await fuzzDeliveries(env, '2');
    assert.equal(fuzz.code, 1, fuzz.out);
    assert.match(fuzz.out, /re-serialisation of the JSON/);
    for (const secret of Object.values(exampleSecretsOf(env)))
      assert.ok(!fuzz.out.includes(secret), 'no endpoint secret in the output');
  });
});

test('dashboard mode: a delivery that never arrives says whether anything reached the receiver at all', {
  timeout: 120_000,
}, async () => {
  // The deployment delivers to the URL it was given, but the receiver listens elsewhere (a
  // tunnel pointed at the wrong port): nothing arrives, and the report says to check the URL.
  await withDeployment([], async (_svc, env) => {
    const elsewhere = `127.0.0.1:${await freePort()}`;
    const { summary } = await harnessRun(
      { ...env, HARNESS_WEBHOOK_LISTEN: elsewhere },
      'ticket\\.created is delivered',
    );
    const failures = summary.areas.contracts!.documentedFailures;
    const f = failures.find((x) => x.check === 'webhook.event-delivered');
    assert.ok(f, `event-delivered failed: ${failures.map((x) => x.check).join(', ')}`);
    assert.match(f.received, /nothing reached the capture receiver at all/);
    assert.ok(f.received.includes(elsewhere), 'names the listen address');
    assert.ok(f.received.includes(env.HARNESS_WEBHOOK_URL!), 'names the public URL');
  });
  // Some events arrive, this one does not: a documented failure, no blame on the URL.
  await withDeployment(['ticket-replied-never'], async (_svc, env) => {
    const { summary } = await harnessRun(env, 'ticket\\.replied is delivered');
    const f = summary.areas.contracts!.documentedFailures.find(
      (x) => x.check === 'webhook.event-delivered',
    );
    assert.ok(f, 'event-delivered failed');
    assert.match(f.received, /^deliveries: ticket\.created/);
    assert.doesNotMatch(f.received, /nothing reached/);
  });
});

test('dashboard mode: deliveries with exactly the documented envelope pass the delivery fuzz, the missing extras reported as assumed (U13), with a repro that reproduces', {
  timeout: 180_000,
}, async () => {
  await withDeployment(['U13=envelope-only'], async (_svc, env) => {
    const json = join(mkdtempSync(join(tmpdir(), 'harness-envelope-')), 'deliveries.json');
    const fuzz = await fuzzDeliveries(env, '2', json);
    assert.equal(fuzz.code, 0, fuzz.out);
    assert.match(fuzz.out, /webhook delivery check: PASS/);
    assert.match(
      fuzz.out,
      /assumed, not failing the run: \[webhook\.event-shape\] \d+ of \d+ deliveries/,
    );
    const result = JSON.parse(readFileSync(json, 'utf8')) as DeliveryCheckResult;
    assert.equal(result.failedDeliveries, 0);
    const failures = deliveryFailures(result);
    assert.deepEqual(
      failures.map((f) => [f.check, f.provenance]),
      [['webhook.event-shape', 'assumed']],
    );
    const [shape] = failures;
    assert.match(shape!.received, /must have required property/);

    // The repro names the endpoint's secret variable and the receiver it needs, signs in the
    // shell, and runs as pasted: a receiver verifying with that secret, at the URL it is given
    // as WEBHOOK_RECEIVER_URL, accepts it.
    const repro = shape!.repro!.split('\n').filter((l) => !l.startsWith('>') && !l.startsWith('<'));
    const script = repro.slice(repro.findIndex((l) => l.startsWith('# the delivery as received')));
    const secretEnv = /signed with \$(HOOK_[A-Z]+_SECRET)/.exec(script[0]!)?.[1];
    assert.ok(secretEnv, `the repro names the endpoint's secret variable:\n${script.join('\n')}`);
    assert.doesNotMatch(shape!.repro!, /HARNESS_API_KEY/);
    assert.match(script.join('\n'), /^# needs: WEBHOOK_RECEIVER_URL/m);
    assert.match(
      script.join('\n'),
      new RegExp(`^# and ${secretEnv}: the signing secret of the endpoint`, 'm'),
    );
    const verifier = createReceiver({ secret: env[secretEnv]! });
    const [host, port] = env.HARNESS_WEBHOOK_LISTEN!.split(':');
    await new Promise<void>((resolve) => verifier.listen(Number(port), host, resolve));
    try {
      const { stdout } = await promisify(execFile)('sh', ['-c', script.join('\n')], {
        cwd: mkdtempSync(join(tmpdir(), 'harness-repro-')),
        env: {
          PATH: process.env.PATH,
          [secretEnv]: env[secretEnv]!,
          WEBHOOK_RECEIVER_URL: `http://${env.HARNESS_WEBHOOK_LISTEN}/`,
        },
      });
      assert.match(stdout, /^HTTP\/1\.1 204/, 'the repro is accepted by a verifying receiver');
    } finally {
      verifier.closeAllConnections();
      verifier.close();
    }
  });
});

test('dashboard mode: a deployment that never retries passes `harness run --skip load`, the retry wait overlapping the suite and reported as an assumption', {
  timeout: 300_000,
}, async () => {
  // A Growth-plan key (600/min, burst 1000): the run's ~580 requests fit its budget, so the time
  // printed is the suite's own; on a Team key the key's rate limit paces the run (rate-budget.ts).
  await withDeployment(
    ['U14=no-retries'],
    async (_svc, env) => {
      // The default wait (60 s), as a user has it: the wait must not follow the suite.
      const { HARNESS_WEBHOOK_RETRY_WAIT_MS: _, ...asUser } = env;
      const started = Date.now();
      const { summary, exitCode } = await harnessRun(asUser, undefined, ['load']);
      const seconds = (Date.now() - started) / 1000;
      const c = summary.areas.contracts!;
      // On a mismatch, what failed and what was not run, so a CI log says why.
      const said = JSON.stringify([c.documentedFailures, c.notRun, summary.areas.fuzz?.notRun]);
      assert.equal(exitCode, 0, `${c.headline} / ${summary.areas.fuzz?.headline}\n${said}`);
      assert.deepEqual(c.documentedFailures, [], c.headline);
      assert.deepEqual(summary.areas.fuzz?.documentedFailures, [], summary.areas.fuzz?.headline);
      const retry = c.assumptionMismatches.filter((f) => f.check === 'webhook.retried-after-5xx');
      assert.equal(retry.length, 1, JSON.stringify(c.assumptionMismatches));
      assert.equal(retry[0]!.provenance, 'assumed');
      assert.match(retry[0]!.rule, /^U14/);
      assert.match(retry[0]!.received, /^1 attempt\(s\).*; no retry observed within \d+ s$/);
      assert.equal(summary.requests?.rateLimited, 0, 'the Growth key was never rate limited');
      // Measured, not asserted (timing belongs to bench/): printed for the record.
      process.stdout.write(
        `# harness run --skip load against a never-retrying deployment: ${seconds.toFixed(1)} s\n`,
      );
    },
    DASHBOARD_ENDPOINTS,
    'growth',
  );
});

/** The README's example endpoints file: the four documented events, and ticket.created only. */
const README_ENDPOINTS = `endpoints:
  - path: /hook/all
    events: [ticket.created, ticket.replied, ticket.closed, customer.replied]
    secret_env: HOOK_ALL_SECRET
    form: both
  - path: /hook/subset
    events: [ticket.created]
    secret_env: HOOK_SUBSET_SECRET
    form: unknown
`;

test("dashboard mode, the README's endpoints file: every configured endpoint is checked for unchosen events", {
  timeout: 300_000,
}, async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'harness-readme-endpoints-')), 'endpoints.yaml');
  writeFileSync(file, README_ENDPOINTS);
  assert.ok(
    readFileSync(new URL('../../README.md', import.meta.url), 'utf8').includes(
      README_ENDPOINTS.replace(/^endpoints:\n/, '').split('\n')[1]!,
    ),
    'the file is the README example',
  );
  const selection = 'only the events chosen';
  // A correct deployment passes: the test runs (not skipped) and checks both endpoints.
  await withDeployment(
    [],
    async (_svc, env) => {
      const { summary } = await harnessRun(env, selection);
      const c = summary.areas.contracts!;
      assert.deepEqual(c.documentedFailures, [], c.headline);
      assert.deepEqual(c.notRun, [], 'the selection test ran');
      const only = summary.checks.find((x) => x.name === 'webhook.only-chosen-events');
      assert.equal(only?.passed, 2, 'checked on both configured endpoints');
    },
    file,
  );
  // Selection applied per workspace: /hook/subset gets the four documented events. The wide
  // endpoint only ever gets what it chose, so checking one endpoint would miss it.
  await withDeployment(
    ['events-chosen-per-workspace'],
    async (_svc, env) => {
      const { summary, exitCode } = await harnessRun(env, selection);
      assert.equal(exitCode, 1);
      const f = summary.areas.contracts!.documentedFailures.filter(
        (x) => x.check === 'webhook.only-chosen-events',
      );
      assert.equal(f.length, 1, JSON.stringify(f));
      assert.match(f[0]!.received, /^at \/hook\/subset: unchosen events delivered: /);
      assert.match(f[0]!.received, /ticket\.replied/);
    },
    file,
  );
});

function exampleSecretsOf(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => /^HOOK_.*_SECRET$/.test(k)));
}
