/**
 * resolveTarget: the target resolved once from the config, never by changing the config; keys
 * typed and registered for redaction; the admin surface only where there is one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../core/config.ts';
import { redact } from '../../core/redact.ts';
import { missingCredential, resolveTarget, withTarget } from '../../core/target/resolve-target.ts';
import { type RunningService, startService } from '../../server/start.ts';

describe('resolveTarget', () => {
  test('a configured target: its keys as given, no admin surface without a token, nothing started', async () => {
    const cfg = loadConfig({
      HARNESS_BASE_URL: 'https://staging.example',
      HARNESS_API_KEY: 'k-full-123456',
      HARNESS_OTHER_WORKSPACE_KEY: 'k-other-123456',
      HARNESS_TEAM_KEYS: 'k-team-1,k-team-2',
    });
    const before = structuredClone(cfg);
    const t = await resolveTarget(cfg);
    assert.equal(t.baseUrl, 'https://staging.example');
    assert.deepEqual(t.keys, {
      full: 'k-full-123456',
      otherWorkspace: 'k-other-123456',
      plans: { team: ['k-team-1', 'k-team-2'] },
    });
    assert.equal(t.admin, undefined);
    assert.equal(t.service, undefined);
    await t.close();
    assert.deepEqual(cfg, before, 'the config is never changed');
    assert.match(missingCredential(t, cfg, ['readOnlyKey']) ?? '', /HARNESS_READONLY_KEY/);
    assert.match(missingCredential(t, cfg, ['webhook']) ?? '', /HARNESS_WEBHOOK_URL/);
    assert.match(missingCredential(t, cfg, ['adminToken']) ?? '', /HARNESS_ADMIN_TOKEN/);
    assert.equal(missingCredential(t, cfg, ['apiKey', 'otherWorkspaceKey']), undefined);
  });

  test('the embedded deployment: started on loopback with the faults of the config, seeded keys redacted, admin surface answering', async () => {
    const cfg = loadConfig({ HARNESS_FAULTS: 'signature-uppercase' });
    const before = structuredClone(cfg);
    const seen = await withTarget(
      cfg,
      { workspace: 'enterprise', plans: ['team'], start: startService },
      async (t) => {
        assert.match(t.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.ok(t.service, 'this process started it');
        assert.ok(
          (t.service as RunningService).ctx.faults.has('signature-uppercase'),
          'the faults of the config',
        );
        assert.equal(t.keys.full, t.service.credentials.workspaces.enterprise.keys.full);
        assert.deepEqual(Object.keys(t.keys.plans), ['team']);
        assert.equal(redact(`k ${t.keys.full} r ${t.keys.readOnly}`), 'k [REDACTED] r [REDACTED]');
        const who = await t.admin!.lookupKey(t.keys.full);
        assert.equal(who?.workspace_id, t.service.credentials.workspaces.enterprise.id);
        assert.equal(
          missingCredential(t, cfg, ['adminToken', 'webhook', 'readOnlyKey']),
          undefined,
        );
        return t.baseUrl;
      },
    );
    assert.deepEqual(cfg, before, 'the config is never changed');
    await assert.rejects(fetch(`${seen}/v1/tickets`), 'closed after withTarget');
  });
});
