/**
 * Broken targets for the robustness tests: each kind is a loopback server that misbehaves one
 * way, and the preflight state(s) the harness should name for it. Call `closeBrokenTargets` in
 * `after`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAll } from '../../run/run-all.ts';
import { type Server, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateSelfSignedCert } from '../../core/webhooks/self-signed.ts';

const servers: Server[] = [];
export async function closeBrokenTargets(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
}

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

export async function brokenTarget(kind: string): Promise<string> {
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
    case 'redirect':
      // Redirects to itself: a client that follows them loops; the harness must not.
      return `http://127.0.0.1:${await listen(createServer((q, r) => r.writeHead(302, { location: q.url ?? '/' }).end()))}`;
    case 'empty-200':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end()))}`;
    case 'enormous':
      // 64 MiB of JSON-looking bytes, streamed: bounded time and memory, then a verdict.
      return `http://127.0.0.1:${await listen(
        createServer((_q, r) => {
          r.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(1 << 20, 0x20);
          let left = 64;
          const pump = () => {
            while (left > 0) {
              left--;
              if (!r.write(chunk)) return void r.once('drain', pump);
            }
            r.end();
          };
          r.write('[');
          pump();
        }),
      )}`;
    case 'slowloris':
      // Headers at once, then one byte a second, forever.
      return `http://127.0.0.1:${await listen(
        createServer((_q, r) => {
          r.writeHead(200, { 'content-type': 'application/json' });
          const t = setInterval(() => r.write(' '), 1000);
          r.on('close', () => clearInterval(t));
        }),
      )}`;
    case 'bad-utf8':
      return `http://127.0.0.1:${await listen(createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]))))}`;
    default:
      throw new Error(kind);
  }
}

/** Preflight states accepted per kind (64 MiB may or may not arrive within the timeout). */
export const EXPECTED_PREFLIGHT: Record<string, string | string[]> = {
  refused: 'refused',
  hang: 'timeout',
  tls: 'tls',
  html: 'not-json',
  garbage: 'not-json',
  '5xx': 'server-error',
  redirect: 'redirect',
  'empty-200': 'not-json',
  enormous: ['not-json', 'timeout'],
  slowloris: 'timeout',
  'bad-utf8': 'not-json',
};

/**
 * The harness run against one broken target: the preflight names the problem and stops the run
 * as "could not run" (exit 2, target unusable, no contract test run, no documented rule reported
 * broken), every report is written and the key never is.
 */
export async function assertVerdictAgainst(kind: string): Promise<void> {
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
      HARNESS_BASE_URL: await brokenTarget(kind),
      HARNESS_API_KEY: 'stk_full_robustness_key_0001',
      HARNESS_TIMEOUT_MS: '500',
      HARNESS_WORKERS: '1',
    },
  });
  assert.equal(exitCode, 2, 'a broken target: the gate could not run');
  assert.equal(summary.verdict, 'error');
  const details = summary.areas.preflight?.details as { preflight?: { state: string } };
  const want = [EXPECTED_PREFLIGHT[kind]!].flat();
  assert.ok(
    want.includes(details?.preflight?.state ?? ''),
    `preflight names the problem: ${details?.preflight?.state} (want ${want.join(' or ')})`,
  );
  assert.ok(summary.unusable?.cause && summary.unusable.fix, 'the cause and what to fix');
  assert.equal(summary.tests.total, 0, 'no contract test ran against an unusable target');
  for (const [area, a] of Object.entries(summary.areas))
    assert.deepEqual(a.documentedFailures, [], `${area}: no documented rule reported broken`);
  for (const f of ['summary.json', 'junit.xml', 'index.html', 'snapshot.json']) {
    assert.ok(existsSync(join(out, 'latest', f)), `${f} written`);
  }
  const text = readFileSync(join(out, 'latest', 'summary.json'), 'utf8');
  assert.equal(text.includes('stk_full_robustness_key_0001'), false, 'the key never appears');
}
