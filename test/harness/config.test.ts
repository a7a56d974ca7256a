import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseEnvFile } from '../../core/config.ts';
import { isLoopbackHost } from '../../core/net.ts';
import { redact } from '../../core/redact.ts';

describe('config', () => {
  test('no HARNESS_BASE_URL means the embedded deployment', () => {
    const c = loadConfig({});
    assert.equal(c.baseUrl, undefined);
    assert.equal(c.strict, false);
    assert.equal(c.timeoutMs, 10_000);
  });

  test('clear messages for malformed variables', () => {
    assert.throws(
      () => loadConfig({ HARNESS_BASE_URL: 'staging' }),
      /HARNESS_BASE_URL is not a URL/,
    );
    assert.throws(() => loadConfig({ HARNESS_BASE_URL: 'ftp://x' }), /must be http\(s\)/);
    assert.throws(
      () => loadConfig({ HARNESS_BASE_URL: 'https://x.example' }),
      /HARNESS_API_KEY is missing/,
    );
    assert.throws(() => loadConfig({ HARNESS_STRICT: 'maybe' }), /HARNESS_STRICT must be 1\/0/);
    assert.throws(() => loadConfig({ HARNESS_TIMEOUT_MS: '5' }), /HARNESS_TIMEOUT_MS/);
    assert.throws(
      () =>
        loadConfig({
          HARNESS_BASE_URL: 'https://x.example',
          HARNESS_API_KEY: 'k',
          HARNESS_FAULTS: 'a',
        }),
      ConfigError,
    );
  });

  test('keys are registered for redaction as soon as they are read', () => {
    loadConfig({
      HARNESS_BASE_URL: 'https://x.example/',
      HARNESS_API_KEY: 'sk_live_abcdef123456',
      HARNESS_TEAM_KEYS: 'team_key_000001, team_key_000002',
    });
    assert.equal(
      redact('key sk_live_abcdef123456 and team_key_000002'),
      'key [REDACTED] and [REDACTED]',
    );
  });

  test('env files: comments, quotes, export; bad lines are errors with a line number', () => {
    assert.deepEqual(parseEnvFile('# c\nexport A=1\nB="two"\n\nC=\'3\''), {
      A: '1',
      B: 'two',
      C: '3',
    });
    assert.throws(() => parseEnvFile('A=1\nnot a line', 'f.env'), /f\.env:2/);
  });

  test('loopback detection', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', '::1'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['10.0.0.1', 'example.com', '128.0.0.1'])
      assert.equal(isLoopbackHost(h), false, h);
  });
});

describe('redaction by shape', () => {
  test('bearer tokens and signature values are masked even when never registered', () => {
    assert.equal(redact('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer [REDACTED]');
    assert.equal(
      redact(`X-Service-Signature: sha256=${'a'.repeat(64)}`),
      'X-Service-Signature: sha256=[REDACTED]',
    );
  });
});
