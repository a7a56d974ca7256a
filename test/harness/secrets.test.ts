/**
 * No secret in any file a run writes: API keys, the admin token and webhook secrets have
 * recognisable shapes on the reference deployment (stk_full_…, stk_read_…, adm_…, whsec_…), so
 * every byte under the output directory is searched for them — after a run with faults on, so
 * failures with curl repros and exchange attachments are among the files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAll } from '../../run/run-all.ts';

const SECRET_SHAPES = [
  /stk_(full|read)_[A-Za-z0-9_-]{16,}/,
  /adm_[A-Za-z0-9_-]{16,}/,
  /whsec_[A-Za-z0-9_-]{12,}/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

test('every file written by a run (with failures and repros) is free of secrets', {
  timeout: 300_000,
}, async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'harness-secrets-')), 'latest');
  const { summary } = await runAll({
    outDir: out,
    skip: ['load'],
    faults: ['readonly-can-write', 'cross-workspace-read', 'signature-wrong-secret'],
    verbose: false,
    log: () => {},
    env: { ...process.env, HARNESS_BASE_URL: '', HARNESS_FAULTS: '' },
  });
  const repros = Object.values(summary.areas)
    .flatMap((a) => a.documentedFailures)
    .filter((f) => f.repro);
  assert.ok(
    repros.length > 0,
    'the run must produce failures with repros, or this test proves nothing',
  );
  const all = files(out);
  assert.ok(all.length > 10, `only ${all.length} files written`);
  const leaks: string[] = [];
  for (const f of all) {
    const text = readFileSync(f).toString('latin1');
    for (const re of SECRET_SHAPES) {
      const m = re.exec(text);
      if (m) leaks.push(`${f}: ${m[0].slice(0, 12)}…`);
    }
  }
  assert.deepEqual(leaks, [], 'secrets found in written files');
});

test('the exchange log and its attachment redact secrets in response bodies and headers', async () => {
  const { loggableExchange } = await import('../../core/http/exchange-log.ts');
  const { registerSecret } = await import('../../core/redact.ts');
  const issued = 'stk_full_issuedbyrotation0000000001';
  registerSecret(issued);
  const logged = JSON.stringify(
    loggableExchange({
      request: {
        method: 'POST',
        url: `http://127.0.0.1:9/admin/keys/k/rotate?key=${issued}`,
        headers: { authorization: `Bearer ${issued}` },
        body: JSON.stringify({ key: issued }),
      },
      response: {
        status: 200,
        headers: { 'x-echo': issued },
        bodyText: JSON.stringify({ key: issued }),
        json: { key: issued },
      },
      durationMs: 1,
    }),
  );
  assert.equal(logged.includes(issued), false, 'the issued key must not appear in the log');
  assert.match(logged, /\[REDACTED\]/, 'the secret is replaced, not dropped silently');
});
