/**
 * Webhooks on a deployment without the admin surface, as a real staging service: the reference
 * deployment in dashboard mode (`npm run serve -- --no-admin --webhook-endpoints FILE`) started
 * as a separate process and reached only through HARNESS_* variables; the harness's one capture
 * receiver listens on a port picked now (HARNESS_WEBHOOK_LISTEN) that the deployment was given
 * as the public URL. A correct deployment passes. That each webhook fault fails its named check in
 * this mode is the detection matrix's dashboard column (test/harness/detection.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAll } from '../../src/run/run-all.ts';
import { DASHBOARD_ENDPOINTS, exampleSecrets } from '../../src/run/detection-dashboard.ts';
import { freePort, serveDashboard } from '../../src/run/serve-process.ts';

async function runAgainst(faults: string[], grep?: string) {
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}`;
  const secrets = exampleSecrets();
  const svc = await serveDashboard({
    endpointsFile: DASHBOARD_ENDPOINTS,
    webhookUrl,
    faults,
    env: secrets,
  });
  try {
    assert.equal(svc.vars.HARNESS_ADMIN_TOKEN, undefined, 'dashboard mode gives no admin token');
    const admin = await fetch(`${svc.baseUrl}/admin/webhooks`);
    assert.equal(admin.status, 404, 'dashboard mode serves no /admin');
    return await runAll({
      outDir: join(mkdtempSync(join(tmpdir(), 'harness-dashboard-')), 'latest'),
      skip: ['load', 'fuzz'],
      grep,
      verbose: false,
      log: () => {},
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...svc.vars,
        ...secrets,
        HARNESS_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
        HARNESS_WEBHOOK_RETRY_WAIT_MS: '5000',
      },
    });
  } finally {
    await svc.stop();
  }
}

test('dashboard mode: a correct deployment passes every webhook check without the admin surface', {
  timeout: 300_000,
}, async () => {
  const { summary, exitCode } = await runAgainst([], '@webhook\\.');
  const c = summary.areas.contracts!;
  assert.equal(summary.target.embedded, false, 'the target came from the environment');
  assert.deepEqual(c.documentedFailures, [], 'no documented failure');
  assert.deepEqual(c.assumptionMismatches, [], 'no assumption mismatch');
  assert.equal(exitCode, 0, c.headline);
  // Everything but sla.at_risk runs: events, forms, selection, retries.
  const notRun = c.notRun.map((n) => n.name);
  assert.ok(
    notRun.every((n) => /sla\.at_risk/.test(n)),
    `not run: ${notRun.join('; ')}`,
  );
  assert.ok(summary.tests.passed >= 11, `${summary.tests.passed} webhook tests passed`);
});
