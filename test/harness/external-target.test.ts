/**
 * The same suite runs unchanged against a deployment given by the environment: a reference
 * deployment started on its own (as `npm run serve` does, default webhook schedule) and reached
 * only through HARNESS_* variables, the way a user points the harness at staging.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { credentialsEnv } from '../../server/credentials-file.ts';
import { startService } from '../../server/start.ts';
import { parseEnvFile } from '../../core/config.ts';
import { runAll } from '../../run/run-all.ts';

test('the contract suite passes against a reference deployment given by HARNESS_BASE_URL', {
  timeout: 300_000,
}, async () => {
  const svc = await startService();
  try {
    const vars = parseEnvFile(credentialsEnv(svc.baseUrl, svc.credentials));
    const { summary, exitCode } = await runAll({
      outDir: join(mkdtempSync(join(tmpdir(), 'harness-external-')), 'latest'),
      skip: ['load', 'fuzz'],
      verbose: false,
      log: () => {},
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...vars },
    });
    const contracts = summary.areas.contracts!;
    assert.equal(summary.target.embedded, false, 'the target came from the environment');
    assert.deepEqual(contracts.documentedFailures, [], 'no documented failure');
    assert.equal(exitCode, 0, contracts.headline);
    assert.ok(
      summary.tests.passed >= 60,
      `${summary.tests.passed} tests passed, ${summary.tests.skipped} skipped`,
    );
    assert.ok(
      summary.created && summary.created.length > 0,
      'created objects are listed for the report',
    );
  } finally {
    await svc.close();
  }
});
