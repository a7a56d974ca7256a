/**
 * A dead, slow, TLS-broken, HTML- or garbage-answering, or 5xx-storming target yields a verdict
 * and a written report: no unhandled exception, no hang past the bounded timeout.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { generateSelfSignedCert } from '../../server/webhooks/index.ts';
import { runAll } from '../../src/run/run-all.ts';

const servers: Server[] = [];
after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

async function target(kind: string): Promise<string> {
  switch (kind) {
    case 'refused': {
      const s = createServer();
      const port = await listen(s);
      s.close();
      return `http://127.0.0.1:${port}`;
    }
    case 'hang':
      return `http://127.0.0.1:${await listen(createServer(() => {}))}`;
    case 'tls': {
      const { key, cert } = await generateSelfSignedCert();
      return `https://127.0.0.1:${await listen(createHttpsServer({ key, cert }, (_q, r) => r.end('{}')) as unknown as Server)}`;
    }
    case 'html':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx</body></html>')))}`;
    case 'garbage':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1, 2,')))}`;
    case '5xx':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"status":503}')))}`;
    default:
      throw new Error(kind);
  }
}

const EXPECTED_PREFLIGHT: Record<string, string> = {
  refused: 'refused',
  hang: 'timeout',
  tls: 'tls',
  html: 'not-json',
  garbage: 'not-json',
  '5xx': 'server-error',
};

describe('robustness against broken targets', () => {
  for (const kind of Object.keys(EXPECTED_PREFLIGHT)) {
    test(`${kind}: a failing verdict and a written report`, async () => {
      const out = mkdtempSync(join(tmpdir(), `harness-robust-${kind}-`));
      const { summary, exitCode } = await runAll({
        outDir: join(out, 'latest'),
        skip: ['load', 'fuzz'],
        grep: 'a new ticket is open',
        contractsTimeoutMs: 120_000,
        log: () => {},
        verbose: false,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          HARNESS_BASE_URL: await target(kind),
          HARNESS_API_KEY: 'stk_full_robustness_key_0001',
          HARNESS_TIMEOUT_MS: '500',
          HARNESS_WORKERS: '1',
        },
      });
      assert.equal(exitCode, 1, 'a broken target fails the gate');
      const details = summary.areas.contracts?.details as { preflight?: { state: string } };
      assert.equal(
        details?.preflight?.state,
        EXPECTED_PREFLIGHT[kind],
        'preflight names the problem',
      );
      assert.ok(summary.areas.contracts!.documentedFailures.length > 0, 'failures are listed');
      for (const f of ['summary.json', 'junit.xml', 'index.html', 'snapshot.json']) {
        assert.ok(existsSync(join(out, 'latest', f)), `${f} written`);
      }
      const text = readFileSync(join(out, 'latest', 'summary.json'), 'utf8');
      assert.equal(text.includes('stk_full_robustness_key_0001'), false, 'the key never appears');
    });
  }
});
