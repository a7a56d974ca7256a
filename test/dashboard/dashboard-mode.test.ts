/**
 * Webhooks on a deployment without the admin surface, as a real staging service: the reference
 * deployment in dashboard mode (`npm run serve -- --no-admin --webhook-endpoints FILE`) started
 * as a separate process and reached only through HARNESS_* variables; the harness's one capture
 * receiver listens on a port picked now (HARNESS_WEBHOOK_LISTEN) that the deployment was given
 * as the public URL. A correct deployment passes; each webhook fault fails its named check.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAULTS } from '../../server/faults.ts';
import { runAll } from '../../src/run/run-all.ts';
import { freePort, serveDashboard } from './serve-process.ts';

const root = new URL('../..', import.meta.url).pathname;
const ENDPOINTS = join(root, 'examples/webhook-endpoints.yaml');

/** Faults whose check needs something a dashboard deployment does not offer (said why). */
const NOT_IN_DASHBOARD_MODE: Record<string, string> = {
  'sla-at-risk-never': 'sla.at_risk needs a clock that can be advanced (admin surface only)',
};

async function runAgainst(faults: string[], grep?: string) {
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}`;
  const secrets = Object.fromEntries(
    ['HOOK_ALL_SECRET', 'HOOK_SUBSET_SECRET', 'HOOK_PREFIXED_SECRET', 'HOOK_PLAIN_SECRET'].map(
      (k) => [k, `whsec_${randomBytes(12).toString('base64url')}`],
    ),
  );
  const svc = await serveDashboard({ endpointsFile: ENDPOINTS, webhookUrl, faults, env: secrets });
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

for (const f of FAULTS.filter((x) => x.area === 'webhooks' && !NOT_IN_DASHBOARD_MODE[x.name])) {
  test(`dashboard mode: fault ${f.name} fails ${f.check}`, { timeout: 180_000 }, async () => {
    const { summary } = await runAgainst([f.name], `@${f.check.replace(/\./g, '\\.')}\\b`);
    const c = summary.areas.contracts!;
    const failed = [...c.documentedFailures, ...c.assumptionMismatches].map((x) => x.check);
    assert.ok(failed.includes(f.check), `${f.check} not among failures: ${failed.join(', ')}`);
  });
}
