/**
 * A dead, slow, TLS-broken, HTML- or garbage-answering, or 5xx-storming target yields a verdict
 * and a written report: no unhandled exception, no hang past the bounded timeout.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runAll } from '../../src/run/run-all.ts';
import { EXPECTED_PREFLIGHT, brokenTarget, closeBrokenTargets } from './broken-targets.ts';

after(closeBrokenTargets);

describe('robustness against broken targets', () => {
  for (const kind of ['refused', 'hang', 'tls', 'html', 'garbage', '5xx']) {
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
          HARNESS_BASE_URL: await brokenTarget(kind),
          HARNESS_API_KEY: 'stk_full_robustness_key_0001',
          HARNESS_TIMEOUT_MS: '500',
          HARNESS_WORKERS: '1',
        },
      });
      assert.equal(exitCode, 1, 'a broken target fails the gate');
      const details = summary.areas.contracts?.details as { preflight?: { state: string } };
      const want = [EXPECTED_PREFLIGHT[kind]!].flat();
      assert.ok(
        want.includes(details?.preflight?.state ?? ''),
        `preflight names the problem: ${details?.preflight?.state} (want ${want.join(' or ')})`,
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
