/**
 * How the run report files a failed contract test is read from the test's annotations, never
 * from its error text (contracts/annotations.ts): a test that failed on its named checks is
 * filed under those checks only; a precondition a target did not meet (our assumed creation
 * route missing) is an assumption mismatch, not a crash of the run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { credentialsEnv } from '../../server/credentials-file.ts';
import { startService } from '../../server/start.ts';
import { parseEnvFile } from '../../core/config.ts';
import { runAll } from '../../run/run-all.ts';
import { forwardBuffered } from '../harness/forward-buffered.ts';

const out = () => join(mkdtempSync(join(tmpdir(), 'harness-filed-')), 'latest');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

test('a test failed by its checks is filed under them, not as a crash', {
  timeout: 300_000,
}, async () => {
  const { summary } = await runAll({
    outDir: out(),
    skip: ['load', 'fuzz'],
    faults: ['create-status-new'],
    grep: 'ticket.created-status-open',
    verbose: false,
    log: () => {},
    env,
  });
  const c = summary.areas.contracts!;
  const names = c.documentedFailures.map((f) => f.check);
  assert.ok(names.includes('ticket.created-status-open'), names.join(', '));
  assert.ok(summary.tests.failed > 0, 'the test failed');
  assert.ok(!names.includes('harness.test-completed'), `not a crash: ${names.join(', ')}`);
});

test('a precondition the target did not meet is an assumption mismatch', {
  timeout: 300_000,
}, async () => {
  const svc = await startService();
  // Our assumed creation route (U5) does not exist on this target: 404 problem for POST /v1/tickets.
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const ch of req) chunks.push(ch as Buffer);
    if (req.method === 'POST' && req.url === '/v1/tickets') {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          code: 'not_found',
          request_id: 'r',
        }),
      );
      return;
    }
    const up = await forwardBuffered(svc.baseUrl, req, chunks);
    res.writeHead(up.statusCode, up.headers as Record<string, string>);
    res.end(Buffer.from(await up.body.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = proxy.address() as AddressInfo;
    const vars = parseEnvFile(credentialsEnv(`http://127.0.0.1:${port}`, svc.credentials));
    const { summary } = await runAll({
      outDir: out(),
      skip: ['load', 'fuzz'],
      grep: 'merge patch',
      verbose: false,
      log: () => {},
      env: { ...env, ...vars },
    });
    const c = summary.areas.contracts!;
    assert.ok(summary.tests.failed > 0, 'the test failed');
    assert.ok(
      c.assumptionMismatches.some((f) => f.check === 'harness.precondition'),
      JSON.stringify(c.assumptionMismatches.map((f) => f.check)),
    );
    const names = c.documentedFailures.map((f) => f.check);
    assert.ok(!names.includes('harness.test-completed'), `not a crash: ${names.join(', ')}`);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await svc.close();
  }
});
