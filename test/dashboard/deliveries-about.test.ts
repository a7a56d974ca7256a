/**
 * What a delivery is about, proven on deployments the harness did not start: the reference
 * deployment in dashboard mode as a separate `serve --no-admin` process, reached only through the
 * HARNESS_* variables of the env file it wrote, with each delivery fault on. Each fault fails the
 * gate on its named check alone, with a Received / Documented text that shows the delivery's
 * payload, and no secret or signature value anywhere in the reports. (A correct deployment's
 * clean pass, these checks evaluated, is dashboard-mode.test.ts's first test.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../core/net.ts';
import { DASHBOARD_ENDPOINTS, exampleSecrets } from '../../run/detection-dashboard.ts';
import { runAll } from '../../run/run-all.ts';
import { serveDashboard } from '../../run/serve-process.ts';
import { FAULTS } from '../../server/faults.ts';

/** fault → what its failure's Received line must show of the delivery. */
const SHOWN: Record<string, RegExp> = {
  'deliveries-cross-workspace':
    /about tkt_\S+ at \/hook\/\w+: a ticket the other workspace's key \(HARNESS_OTHER_WORKSPACE_KEY\) created during the run.*"subject":"\[harness \w+\] webhook isolation: the other workspace"/,
  'payload-customer-agent':
    /about tkt_\S+ at \/hook\/\w+: customer \{"name":"Support Agent","email":"agent@desk\.example"\}/,
  'closed-payload-status-open': /^ticket\.closed about tkt_\S+ at \/hook\/all: status "open"/,
  'close-delivers-created':
    /^ticket\.created about tkt_\S+ at \/hook\/\w+, the 2nd there: no action of the run fired it.*"status":"closed"/,
  'webhook-body-latin1':
    /^Content-Type application\/json with a body that is not valid UTF-8: byte 0xEB at offset \d+ \(.*"name":"Zo\\xeb \\xc5ngstr\\xf6m/,
};

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('dashboard mode, a separate process: each delivery fault fails its named check alone, showing the delivery', {
  timeout: 900_000,
}, async () => {
  for (const [fault, shown] of Object.entries(SHOWN)) {
    const check = FAULTS.find((f) => f.name === fault)!.check;
    const port = await freePort();
    const secrets = exampleSecrets();
    const svc = await serveDashboard({
      endpointsFile: DASHBOARD_ENDPOINTS,
      webhookUrl: `http://127.0.0.1:${port}`,
      faults: [fault],
      env: secrets,
      apiPlan: 'growth',
    });
    try {
      const env = { ...svc.vars, HARNESS_WEBHOOK_RETRY_WAIT_MS: '5000' };
      const out = join(mkdtempSync(join(tmpdir(), 'harness-about-')), 'latest');
      // The tests whose deliveries feed the fault's check (as the detection matrix picks them).
      const { summary, exitCode } = await runAll({
        outDir: out,
        skip: ['load', 'fuzz'],
        grep: `@${esc(check)}\\b`,
        verbose: false,
        log: () => {},
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      });
      const c = summary.areas.contracts!;
      const said = JSON.stringify(c.documentedFailures.map((f) => [f.check, f.received]));
      assert.equal(exitCode, 1, `${fault}: ${c.headline} ${said}`);
      assert.deepEqual(
        [...new Set(c.documentedFailures.map((f) => f.check))],
        [check],
        `${fault} fails ${check} alone: ${said}`,
      );
      assert.deepEqual(c.assumptionMismatches, [], `${fault}: no assumption mismatch`);
      const f = c.documentedFailures.find((x) => shown.test(x.received));
      assert.ok(f, `${fault}: a failure shows the delivery (${shown}): ${said}`);
      assert.equal(f.provenance, 'documented');
      // The repro replays the delivery's bytes, signed in the shell with its endpoint's secret.
      assert.match(f.repro ?? '', /signed with \$HOOK_[A-Z]+_SECRET/);
      // Text as text; bytes that are not UTF-8 (the Latin-1 body) as octal escapes, exactly.
      assert.match(
        f.repro ?? '',
        fault === 'webhook-body-latin1' ? /printf '(\\\d{3})+' > delivery\.body/ : /"event":/,
      );
      for (const file of ['summary.json', 'index.html', 'junit.xml']) {
        const text = readFileSync(join(out, file), 'utf8');
        for (const [name, value] of Object.entries(env))
          if (/KEY|SECRET|TOKEN/.test(name))
            assert.ok(!text.includes(value), `${fault}: ${name} not in ${file}`);
        assert.doesNotMatch(text, /sha256=[0-9a-f]{64}/, `${fault}: no signature value in ${file}`);
      }
    } finally {
      await svc.stop();
    }
  }
});
