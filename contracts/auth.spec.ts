/**
 * Authentication: a rotated key stops working and the key the rotation issued works. Missing,
 * unknown and malformed keys, and the read-only key's scope, are judged by the rule × operation
 * matrix (contracts/rule-matrix.spec.ts) on every operation of the spec — it sends those
 * requests already, with the probes (U17–U19) and problem bodies these tests recorded, so no
 * test sends them a second time (a gate run must fit a Team key's burst).
 */
import { registerSecret } from '../core/redact.ts';
import { fullKey } from '../core/target/resolve-target.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import { observeCrossCutting, skipIfReadOnly } from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));

test.describe('key rotation', () => {
  test('a rotated key stops working and the new key works', {
    tag: ['@auth.rotated-key-rejected', '@auth.rotation-new-key-works', '@auth.invalid-key-401'],
  }, async ({ api, verdict, needs, target }) => {
    needs('adminToken');
    skipIfReadOnly(target, test.skip);
    // A fresh key that no other test uses: rotating the suite's own key would break them.
    const ws = await target.lookupKey(fullKey(target));
    need(ws?.workspace_id, 'the admin surface knows the workspace of the API key').toBeDefined();
    const issued = await target.admin('POST', `/admin/workspaces/${ws!.workspace_id}/keys`, {
      scope: 'full',
    });
    need(issued.status, 'the admin surface issued a key').toBe(201);
    const oldKey: string = issued.json.key;
    registerSecret(oldKey);
    const before = await api.send('GET', '/v1/tickets', { key: oldKey, query: { limit: 1 } });
    need(before.status, 'the fresh key works before rotation').toBe(200);

    const rotated = await target.admin('POST', `/admin/keys/${issued.json.id}/rotate`, {});
    need(rotated.status, 'the admin surface rotated the key').toBe(200);
    const newKey: string = rotated.json.key;
    registerSecret(newKey);

    const old = await api.send('GET', '/v1/tickets', { key: oldKey, query: { limit: 1 } });
    const fresh = await api.send('GET', '/v1/tickets', { key: newKey, query: { limit: 1 } });
    if (verdict.check('auth.rotated-key-rejected', old)) verdict.check('auth.invalid-key-401', old);
    verdict.check('auth.rotation-new-key-works', fresh);
    await target.admin('DELETE', `/admin/keys/${issued.json.id}`, {});
  });
});
