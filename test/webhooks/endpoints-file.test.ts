/**
 * The endpoints file (HARNESS_WEBHOOK_ENDPOINTS) and the webhook variables of the configuration:
 * the issue's exact shape is accepted, every mistake gets its own message (all at once), the URL
 * alone is one endpoint subscribed to everything, and every secret read is registered for
 * redaction.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig, parseListen } from '../../core/config.ts';
import { redact } from '../../core/redact.ts';
import {
  EndpointsFileError,
  readEndpointsFile,
  TRIGGERABLE_EVENTS,
  validateEndpoints,
} from '../../core/webhooks/endpoints-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-endpoints-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

/** Verbatim from issue 9, plus a field the harness does not know (more fields are fine). */
const ISSUE_YAML = `endpoints:
  - path: /hook/all            # appended to HARNESS_WEBHOOK_URL
    events: [ticket.created, ticket.replied, ticket.closed, customer.replied]
    secret_env: HOOK_ALL_SECRET  # env variable holding that endpoint's signing secret
    form: both                 # prefixed | plain | both | unknown (unknown: observe, U15)
    description: created by hand in the dashboard
  - path: /hook/subset
    events: [ticket.created]
    secret_env: HOOK_SUBSET_SECRET
    form: unknown
`;

describe('endpoints file', () => {
  test("the issue's exact YAML is accepted, extra fields ignored", () => {
    assert.deepEqual(readEndpointsFile(file('issue.yaml', ISSUE_YAML)), [
      {
        path: '/hook/all',
        events: ['ticket.created', 'ticket.replied', 'ticket.closed', 'customer.replied'],
        secretEnv: 'HOOK_ALL_SECRET',
        form: 'both',
      },
      {
        path: '/hook/subset',
        events: ['ticket.created'],
        secretEnv: 'HOOK_SUBSET_SECRET',
        form: 'unknown',
      },
    ]);
  });

  test('JSON is accepted too; form defaults to unknown', () => {
    const p = file(
      'e.json',
      JSON.stringify({ endpoints: [{ path: '/h', events: ['ticket.closed'], secret_env: 'S' }] }),
    );
    assert.deepEqual(readEndpointsFile(p), [
      { path: '/h', events: ['ticket.closed'], secretEnv: 'S', form: 'unknown' },
    ]);
  });

  test('each mistake has its own message naming the entry and the field, all reported at once', () => {
    const doc = {
      endpoints: [
        { path: 'hook', events: ['ticket.created'], secret_env: 'A', form: 'both' },
        { path: '/x', events: [], secret_env: 'B' },
        { path: '/y', events: ['ticket.created'], secret_env: 'not a name', form: 'sometimes' },
        { path: '/x', events: ['Ticket Created'], secret_env: 'C' },
        'just a string',
      ],
    };
    let message = '';
    try {
      validateEndpoints(doc, 'f.yaml');
    } catch (e) {
      assert.ok(e instanceof EndpointsFileError);
      message = e.message;
    }
    const lines = message.split('\n');
    assert.equal(lines.length, 7, message);
    for (const expected of [
      /^f\.yaml: endpoints\[0\]\.path: expected a path starting with '\/' .*got "hook"$/,
      /^f\.yaml: endpoints\[1\]\.events: expected a non-empty list of event names/,
      /^f\.yaml: endpoints\[2\]\.secret_env: expected the name of an environment variable, got "not a name"$/,
      /^f\.yaml: endpoints\[2\]\.form: expected one of prefixed, plain, both, unknown, got "sometimes"$/,
      /^f\.yaml: endpoints\[3\]\.path: '\/x' is listed twice$/,
      /^f\.yaml: endpoints\[3\]\.events: .*got \["Ticket Created"\]$/,
      /^f\.yaml: endpoints\[4\]: expected a mapping/,
    ])
      assert.ok(
        lines.some((l) => expected.test(l)),
        `${expected} not among:\n${message}`,
      );
  });

  test('an empty document, a missing list, unreadable or unparsable files are clear errors', () => {
    assert.throws(() => validateEndpoints({}, 'f'), /expected a top-level 'endpoints:' list/);
    assert.throws(() => validateEndpoints({ endpoints: [] }, 'f'), /at least one endpoint/);
    assert.throws(() => readEndpointsFile(join(dir, 'nope.yaml')), /cannot read .*nope\.yaml/);
    assert.throws(
      () => readEndpointsFile(file('bad.yaml', 'endpoints: [\n')),
      /bad\.yaml: not valid YAML\/JSON: .* at line 2, column 1:\n\n 1 \| endpoints: \[/,
    );
    const tabbed = 'endpoints:\n  - path: /a\n\t  events: [ticket.created]\n';
    assert.throws(() => readEndpointsFile(file('tab.yaml', tabbed)), /tab\.yaml: .* at line 3,/);
  });
});

describe('webhook configuration', () => {
  const base = {
    HARNESS_BASE_URL: 'http://127.0.0.1:9',
    HARNESS_API_KEY: 'key_full_0123456789',
  };

  test('the file with its secrets from the secret_env variables, registered for redaction', () => {
    const cfg = loadConfig({
      ...base,
      HARNESS_WEBHOOK_URL: 'https://ci-hooks.example.com/run/',
      HARNESS_WEBHOOK_ENDPOINTS: file('cfg.yaml', ISSUE_YAML),
      HOOK_ALL_SECRET: 'whsec_all_7d1f2e9a8b',
      HOOK_SUBSET_SECRET: 'whsec_subset_0c4e6a1b',
    });
    assert.equal(cfg.webhookUrl, 'https://ci-hooks.example.com/run');
    assert.deepEqual(
      cfg.webhookEndpoints.map((e) => [e.path, e.secret]),
      [
        ['/hook/all', 'whsec_all_7d1f2e9a8b'],
        ['/hook/subset', 'whsec_subset_0c4e6a1b'],
      ],
    );
    assert.equal(
      redact('a whsec_all_7d1f2e9a8b b whsec_subset_0c4e6a1b').includes('whsec_'),
      false,
      'both secrets redacted',
    );
  });

  test('a secret_env variable that is not set is named; the file needs the URL', () => {
    assert.throws(
      () =>
        loadConfig({
          ...base,
          HARNESS_WEBHOOK_URL: 'https://hooks.example',
          HARNESS_WEBHOOK_ENDPOINTS: file('cfg2.yaml', ISSUE_YAML),
          HOOK_ALL_SECRET: 'x',
        }),
      /secret_env variable\(s\) not set: HOOK_SUBSET_SECRET/,
    );
    assert.throws(
      () => loadConfig({ ...base, HARNESS_WEBHOOK_ENDPOINTS: file('cfg3.yaml', ISSUE_YAML) }),
      /HARNESS_WEBHOOK_URL is missing/,
    );
  });

  test('without a file, the URL and its secret are one endpoint subscribed to every event, form unknown', () => {
    const cfg = loadConfig({
      ...base,
      HARNESS_WEBHOOK_URL: 'https://hooks.example/x',
      HARNESS_WEBHOOK_SECRET: 'whsec_single_93b7',
    });
    assert.deepEqual(cfg.webhookEndpoints, [
      {
        path: '',
        events: [...TRIGGERABLE_EVENTS],
        secretEnv: 'HARNESS_WEBHOOK_SECRET',
        secret: 'whsec_single_93b7',
        form: 'unknown',
      },
    ]);
    assert.equal(loadConfig({ ...base }).webhookEndpoints.length, 0, 'no URL, no endpoint');
  });

  test('listen address, TLS files and retry wait are validated with the variable named', () => {
    assert.deepEqual(parseListen(undefined), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(parseListen('0.0.0.0:8099'), { host: '0.0.0.0', port: 8099 });
    assert.deepEqual(parseListen('[::1]:8099'), { host: '::1', port: 8099 });
    for (const bad of ['8099', 'host:', 'a:b', '127.0.0.1:70000'])
      assert.throws(() => parseListen(bad), /HARNESS_WEBHOOK_LISTEN must be host:port/, bad);
    assert.throws(
      () => loadConfig({ HARNESS_WEBHOOK_TLS_CERT: '/x.pem' }),
      /HARNESS_WEBHOOK_TLS_CERT and HARNESS_WEBHOOK_TLS_KEY go together/,
    );
    assert.throws(
      () =>
        loadConfig({ HARNESS_WEBHOOK_TLS_CERT: '/nope.pem', HARNESS_WEBHOOK_TLS_KEY: '/nope.key' }),
      /cannot read the receiver's TLS files/,
    );
    assert.throws(
      () => loadConfig({ HARNESS_WEBHOOK_RETRY_WAIT_MS: 'soon' }),
      /HARNESS_WEBHOOK_RETRY_WAIT_MS must be an integer/,
    );
  });
});
