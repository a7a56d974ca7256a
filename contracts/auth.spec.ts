/**
 * Authentication and scopes: missing and invalid keys are rejected (documented) with 401 and a
 * Bearer challenge (assumed U17/U18); a read-only key is refused every write operation of the spec
 * (enumerated from `x-scope: write`) and allowed every read; a rotated key stops working.
 */
import { randomBytes } from 'node:crypto';
import type { ApiClient } from '../core/http/api-client.ts';
import { BOGUS_KEY_PREFIX, registerSecret } from '../core/redact.ts';
import { fullKey } from '../core/target/resolve-target.ts';
import { type OperationSpec, operations } from '../core/spec/operations.ts';
import { test } from './fixtures.ts';
import { need } from './need.ts';
import {
  type Tag,
  createTicket,
  idOf,
  observeCrossCutting,
  readableContact,
  readableTicket,
  skipIfReadOnly,
} from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));

const EXCHANGE_TAGS = ['@exchange.ratelimit-headers', '@exchange.content-type'];

test.describe('missing and invalid keys', () => {
  test('a request without a key is rejected: 401 with WWW-Authenticate: Bearer', {
    tag: [
      '@auth.missing-key-rejected',
      '@auth.missing-key-401',
      '@auth.www-authenticate',
      '@validation.problem-body',
      ...EXCHANGE_TAGS,
    ],
  }, async ({ api, verdict, probe, target }) => {
    const read = await api.send('GET', '/v1/tickets', { key: null });
    // A deployment that wrongly accepts it would create a ticket: not in a read-only run.
    const write = target.cfg.readOnly
      ? read
      : await api.send('POST', '/v1/tickets', {
          key: null,
          body: { subject: 'no key', requester: { email: 'nokey@example.com' } },
        });
    probe('U17', 'missing-key-status', read.status ?? null);
    // Scheme and parameter names only: the redactor masks a raw `Bearer realm=…` value.
    const challenge = read.response?.headers['www-authenticate'];
    probe(
      'U17',
      'missing-key-challenge',
      challenge === undefined
        ? null
        : {
            scheme: challenge.split(/\s+/)[0],
            // Each parameter name starts a run of letters: no rescan of a long run per letter.
            params: [...challenge.matchAll(/(?<![a-z_])([a-z_]+)=/gi)].map((m) => m[1]),
          },
      'WWW-Authenticate without a key (scheme, parameter names)',
    );
    for (const ex of [read, write]) {
      // Which rejection (401, U17) and its challenge are judged where the request was rejected:
      // an accepted one is the documented rule's verdict alone.
      if (
        verdict.check('auth.missing-key-rejected', ex) &&
        verdict.check('auth.missing-key-401', ex)
      )
        verdict.check('auth.www-authenticate', ex);
      verdict.check('validation.problem-body', ex);
    }
    need(read.response, 'the target answered').toBeDefined();
  });

  test('a request with an unknown key is rejected: 401 with WWW-Authenticate: Bearer', {
    tag: [
      '@auth.invalid-key-rejected',
      '@auth.invalid-key-401',
      '@auth.malformed-authorization-rejected',
      '@auth.www-authenticate',
      '@validation.problem-body',
      ...EXCHANGE_TAGS,
    ],
  }, async ({ api, verdict, probe, target }) => {
    // Invented to be refused, never a secret: reports and repros show it as sent.
    const bogus = `${BOGUS_KEY_PREFIX}${randomBytes(12).toString('hex')}`;
    const read = await api.send('GET', '/v1/tickets', { key: bogus });
    const write = target.cfg.readOnly
      ? read
      : await api.send('POST', '/v1/tickets', {
          key: bogus,
          body: { subject: 'bad key', requester: { email: 'badkey@example.com' } },
        });
    // Not a bearer credential at all: the same rejection.
    const basic = await api.send('GET', '/v1/tickets', {
      key: null,
      headers: { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    });
    probe('U18', 'invalid-key-status', read.status ?? null);
    for (const ex of [read, write]) {
      if (
        verdict.check('auth.invalid-key-rejected', ex) &&
        verdict.check('auth.invalid-key-401', ex)
      )
        verdict.check('auth.www-authenticate', ex);
      verdict.check('validation.problem-body', ex);
    }
    verdict.check('auth.malformed-authorization-rejected', basic);
    need(read.response, 'the target answered').toBeDefined();
  });
});

/** A valid request for each write operation, on real objects of workspace A. */
async function writeSample(
  op: OperationSpec,
  api: ApiClient,
  tag: Tag,
): Promise<{ path: string; body?: unknown }> {
  const params: Record<string, string> = {};
  if (op.template.includes('{ticket_id}') || op.operationId === 'applyMacro') {
    params.ticket_id = idOf(await createTicket(api, tag, `read-only target ${op.operationId}`));
  }
  if (op.template.includes('{contact_id}')) {
    const c = await api.call('post', '/v1/contacts', {
      body: { email: 'readonly-target@example.com', name: 'Read Only Target' },
    });
    params.contact_id = idOf(c);
  }
  if (op.template.includes('{macro_id}')) {
    const m = await api.call('get', '/v1/macros');
    params.macro_id = m.json?.data?.[0]?.id ?? 'mac_harness_missing';
  }
  const path = op.template.replace(/\{([^}]+)\}/g, (_, k: string) =>
    encodeURIComponent(params[k] ?? 'missing'),
  );
  const bodies: Record<string, unknown> = {
    createTicket: {
      subject: tag.subject('written with a read-only key'),
      requester: { email: 'ro@example.com', name: 'Read Only' },
      tags: tag.tags,
    },
    updateTicket: { subject: tag.subject('patched with a read-only key') },
    closeTicket: undefined,
    addMessage: { body: 'written with a read-only key', author: 'agent' },
    createContact: { email: 'ro-contact@example.com', name: 'Read Only' },
    updateContact: { name: 'patched with a read-only key' },
    deleteContact: undefined,
    applyMacro: { ticket_id: params.ticket_id },
    createRule: {
      name: tag.subject('read-only rule'),
      event: 'ticket.created',
      conditions: { tag: `never-${randomBytes(4).toString('hex')}` },
      actions: { tags_add: ['never'] },
    },
  };
  if (!(op.operationId in bodies))
    throw new Error(
      `auth.spec.ts has no sample request for write operation ${op.operationId}: add one`,
    );
  return { path, body: bodies[op.operationId] };
}

/** A valid request for each read operation; in a read-only run on objects that already exist. */
async function readSample(
  op: OperationSpec,
  api: ApiClient,
  tag: Tag,
  readOnly: boolean,
): Promise<string> {
  const params: Record<string, string> = {};
  const firstOf = async (p: string) =>
    ((await api.send('GET', p, { query: { limit: 1 } })).json?.data?.[0]?.id as string) ?? 'none';
  if (op.template.includes('{ticket_id}'))
    params.ticket_id = readOnly
      ? await firstOf('/v1/tickets')
      : (await readableTicket(api, tag)).id;
  if (op.template.includes('{contact_id}'))
    params.contact_id = readOnly ? await firstOf('/v1/contacts') : (await readableContact(api)).id;
  return op.template.replace(/\{([^}]+)\}/g, (_, k: string) =>
    encodeURIComponent(params[k] ?? 'missing'),
  );
}

test.describe('read-only key', () => {
  const ops = operations();
  for (const op of ops.filter((o) => o.scope === 'write')) {
    test(`is refused ${op.method} ${op.template} (${op.operationId}) with 403 insufficient_scope`, {
      tag: ['@auth.readonly-forbidden', '@auth.readonly-403'],
    }, async ({ api, verdict, needs, tag, target, probe }) => {
      needs('readOnlyKey');
      skipIfReadOnly(target, test.skip);
      const { path, body } = await writeSample(op, api, tag);
      const ex = await api.send(op.method, path, { key: target.keys.readOnly, body });
      probe('U19', `readonly-write-status:${op.operationId}`, ex.status ?? null);
      // Which refusal (403 insufficient_scope, U19) is judged where the write was refused.
      if (verdict.check('auth.readonly-forbidden', ex, { operation: op.operationId }))
        verdict.check('auth.readonly-403', ex, { operation: op.operationId });
      need(ex.response, 'the target answered').toBeDefined();
    });
  }
  for (const op of ops.filter((o) => o.scope === 'read')) {
    test(`may ${op.method} ${op.template} (${op.operationId})`, {
      tag: ['@auth.readonly-can-read'],
    }, async ({ api, verdict, needs, tag, target }) => {
      needs('readOnlyKey');
      const path = await readSample(op, api, tag, target.cfg.readOnly);
      test.skip(
        path.includes('/none'),
        'not run: nothing to read in the workspace (read-only run)',
      );
      const ex = await api.send(op.method, path, { key: target.keys.readOnly });
      verdict.check('auth.readonly-can-read', ex, { operation: op.operationId });
      need(ex.response, 'the target answered').toBeDefined();
    });
  }
});

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
