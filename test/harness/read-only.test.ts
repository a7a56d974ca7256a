/**
 * HARNESS_READ_ONLY=1 (production) sends no write: the whole run goes through a recording proxy
 * in front of a reference deployment, and every request that reached the deployment is a GET.
 * A test that wrote before skipping itself would not show in the exchange log (skipped tests are
 * not logged), so the wire is watched instead of the log.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { credentialsEnv } from '../../server/credentials-file.ts';
import { startService } from '../../server/start.ts';
import { parseEnvFile } from '../../core/config.ts';
import { runAll } from '../../run/run-all.ts';
import { pipeTo } from './pipe-to.ts';

test('a read-only run sends only GET requests and lists what it did not run', {
  timeout: 300_000,
}, async () => {
  const svc = await startService();
  const upstream = new URL(svc.baseUrl);
  const seen: string[] = [];
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    pipeTo(upstream, req, res);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    const vars = parseEnvFile(credentialsEnv(proxyUrl, svc.credentials));
    // Something to read, written past the proxy: the read tests then run instead of skipping.
    const seeded = await fetch(`${svc.baseUrl}/v1/tickets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${vars.HARNESS_API_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ subject: 'seeded', requester: { email: 'seed@example.com' } }),
    });
    assert.equal(seeded.status, 201, 'the seed ticket was created');
    const { summary, exitCode } = await runAll({
      outDir: join(mkdtempSync(join(tmpdir(), 'harness-read-only-')), 'latest'),
      skip: ['load', 'fuzz'],
      verbose: false,
      log: () => {},
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...vars, HARNESS_READ_ONLY: '1' },
    });
    const writes = seen.filter((l) => !/^(GET|HEAD|OPTIONS) /.test(l));
    assert.ok(seen.length > 10, `only ${seen.length} requests reached the deployment`);
    assert.deepEqual(writes, [], 'a read-only run sent write requests');
    const contracts = summary.areas.contracts!;
    assert.deepEqual(contracts.documentedFailures, [], 'no documented failure');
    assert.equal(exitCode, 0, contracts.headline);
    // What a read-only run leaves out is the user's option: listed per rule, never held against it.
    assert.equal(summary.verdict, 'pass');
    assert.equal(summary.unchecked, undefined);
    const forbidden = summary.rules!.find((r) => r.check === 'auth.readonly-forbidden')!;
    assert.ok(
      forbidden.cells!.notReached.some((n) => /HARNESS_READ_ONLY/.test(n.why) && !n.byTarget),
      JSON.stringify(forbidden),
    );
    // The reads that run: transport's, the list checks that only read, and the rule × operation
    // matrix's request kinds (one test each, every read operation with each kind of key).
    assert.ok(summary.tests.passed >= 6, `${summary.tests.passed} tests passed`);
    const reasons = contracts.notRun.map((n) => n.reason);
    assert.ok(
      reasons.some((r) => r.includes('HARNESS_READ_ONLY')),
      `the tests that write are listed as not run with the reason: ${reasons.slice(0, 3).join('; ')}`,
    );
  } finally {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await svc.close();
  }
});
