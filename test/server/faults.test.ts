/**
 * Each contract fault changes exactly the behaviour it names: a battery of probes is run against
 * the correct deployment and against each fault; the set of probes whose observation differs must
 * equal the fault's declared set. (Limiter faults: rate-limit.test.ts; webhook faults:
 * webhooks-*.test.ts and the wiring test below.)
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type VerdictId, VERDICT_IDS, verdictRule } from '../../load/lib/verdicts.ts';
import { FAULTS, type FaultName, ruleOf } from '../../server/faults.ts';
import type { CheckName } from '../../core/checks/all.ts';
import { listedTickets } from '../../core/checks/catalogue/ticket-lists.ts';
import { checks } from '../../core/checks/index.ts';
import { undiciTransport } from '../../core/http/undici-transport.ts';
import { makeService, newTicket } from './harness.ts';

type Svc = ReturnType<typeof makeService>;
const hours = (t: { created_at: string; sla?: { first_response_due: string } }) =>
  t.sla
    ? (Date.parse(t.sla.first_response_due) - Date.parse(`${t.created_at.replace(/Z?$/, 'Z')}`)) /
      3.6e6
    : null;

/** POST /v1/tickets with the Team workspace's full key: the request most probes start from. */
const createTicket = (s: Svc, body: unknown = newTicket(), headers?: Record<string, string>) =>
  s.call('POST', '/v1/tickets', s.ws.team.keys.full, body, headers);

/**
 * For each body, whether creating it answered a 5xx — not the status: readings change it.
 */
const createFails = (s: Svc, bodies: unknown[]) =>
  Promise.all(bodies.map(async (b) => (await createTicket(s, b)).status >= 500));

/**
 * The ticket ids of a cursor walk with `key`, two a page, ten pages at most, in the order seen
 * (repeats kept); 'no-envelope' when a page is not the documented `{ data, next_cursor }`.
 */
async function walkIds(s: Svc, key: string): Promise<string[] | 'no-envelope'> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const j: { data: Array<{ id: string }>; next_cursor: string | null } = (
      await s.call('GET', `/v1/tickets?limit=2${cursor ? `&cursor=${cursor}` : ''}`, key)
    ).json;
    if (!j || Array.isArray(j) || !Array.isArray(j.data)) return 'no-envelope';
    ids.push(...j.data.map((t) => t.id));
    cursor = j.next_cursor;
    if (!cursor) break;
  }
  return ids;
}

const PROBES: Record<string, (s: Svc) => Promise<unknown>> = {
  createStatus: async (s) => (await createTicket(s)).json.status,
  createCode: async (s) => (await createTicket(s)).status,
  createdAtUtc: async (s) => /Z$/.test((await createTicket(s)).json.created_at),
  slaPresent: async (s) => 'sla' in (await createTicket(s)).json,
  slaHours: async (s) => {
    const out = [];
    for (const priority of ['low', 'normal', 'high']) {
      out.push(hours((await createTicket(s, newTicket({ priority }))).json));
    }
    return out;
  },
  priorityEcho: async (s) => (await createTicket(s, newTicket({ priority: 'low' }))).json.priority,
  requesterEcho: async (s) => (await createTicket(s)).json.requester,
  // --- input as people type it ------------------------------------------------------------------
  astralSubject: async (s) => {
    const r = await createTicket(s, newTicket({ subject: 'Printer 😀 on fire 𠜎' }));
    // Whether it is a 5xx, not the status: readings change it.
    return [r.status >= 500, r.json?.subject ?? null];
  },
  longSubject: async (s) =>
    createFails(
      s,
      [280, 301, 1000].map((n) => newTicket({ subject: 'a'.repeat(n) })),
    ),
  manyTags: async (s) =>
    createFails(
      s,
      [20, 21, 50].map((n) => newTicket({ tags: Array.from({ length: n }, (_, i) => `t${i}`) })),
    ),
  missingRequester: async (s) => (await createTicket(s, { subject: 'x' })).status,
  missingSubject: async (s) => (await createTicket(s, { requester: { email: 'a@b.io' } })).status,
  wrongType: async (s) => (await createTicket(s, newTicket({ subject: 7 }))).status,
  listShape: async (s) => {
    const j = (await s.call('GET', '/v1/tickets', s.ws.team.keys.full)).json;
    return Array.isArray(j) ? 'array' : Object.keys(j).sort();
  },
  // The documented minimum of a list (tickets.list-holds-tickets), whatever its envelope: the
  // first page, no limit given, lists tickets once the workspace holds one.
  unfilteredListed: async (s) => {
    await createTicket(s);
    const j = (await s.call('GET', '/v1/tickets', s.ws.team.keys.full)).json;
    return (listedTickets(j)?.length ?? 0) > 0;
  },
  paginationDuplicates: async (s) => {
    const key = s.ws.growth.keys.full;
    for (let i = 0; i < 5; i++) await s.call('POST', '/v1/tickets', key, newTicket());
    const ids = await walkIds(s, key);
    if (ids === 'no-envelope') return ids;
    return ids.length - new Set(ids).size;
  },
  paginationGaps: async (s) => {
    const key = s.ws.enterprise.keys.full;
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await s.call('POST', '/v1/tickets', key, newTicket())).json.id);
    const walked = await walkIds(s, key);
    if (walked === 'no-envelope') return walked;
    const ids = new Set(walked);
    return made.filter((id) => !ids.has(id)).length;
  },
  closeStatus: async (s) => {
    const t = (await createTicket(s)).json;
    return (await s.call('POST', `/v1/tickets/${t.id}/close`, s.ws.team.keys.full)).json.status;
  },
  notFoundType: async (s) =>
    String(
      (await s.call('GET', '/v1/tickets/tkt_none', s.ws.team.keys.full)).headers['content-type'],
    ).split(';')[0],
  missingKey: async (s) => (await s.call('GET', '/v1/tickets')).status,
  invalidKey: async (s) => (await s.call('GET', '/v1/tickets', 'stk_full_not_a_key')).status,
  wwwAuthOnInvalid: async (s) => {
    const r = await s.call('GET', '/v1/tickets', 'stk_full_not_a_key');
    return r.status === 401 ? String(r.headers['www-authenticate'] ?? 'none').split(' ')[0] : 'n/a';
  },
  readOnlyWrite: async (s) =>
    (await s.call('POST', '/v1/tickets', s.ws.team.keys.readOnly, newTicket())).status,
  rotatedOldKey: async (s) => {
    const old = s.ws.enterprise.keys.full2;
    await s.admin('POST', `/admin/keys/${s.ws.enterprise.keyIds.full2}/rotate`);
    return (await s.call('GET', '/v1/tickets', old)).status;
  },
  crossWorkspaceGet: async (s) => {
    const t = (await createTicket(s)).json;
    return (await s.call('GET', `/v1/tickets/${t.id}`, s.ws.other.keys.full)).status;
  },
  getTicketNoKey: async (s) => {
    const t = (await createTicket(s)).json;
    return (await s.call('GET', `/v1/tickets/${t.id}`)).status;
  },
  malformedAuthorization: async (s) => [
    (await s.call('GET', '/v1/tickets', undefined, undefined, { authorization: 'Basic dTpw' }))
      .status,
    (await s.call('GET', '/v1/tickets', undefined, undefined, { authorization: 'Bearer' })).status,
  ],
  crossWorkspaceContact: async (s) => {
    const c = (
      await s.call('POST', '/v1/contacts', s.ws.team.keys.full, { email: 'c@example.com' })
    ).json;
    return (await s.call('GET', `/v1/contacts/${c.id}`, s.ws.other.keys.full)).status;
  },
  planLimitHeaders: async (s) => [
    (await s.call('GET', '/v1/tickets', s.ws.team.keys.full)).headers['x-ratelimit-limit'],
    (await s.call('GET', '/v1/tickets', s.ws.growth.keys.full)).headers['x-ratelimit-limit'],
  ],
  crossWorkspaceWrite: async (s) => {
    const t = (await createTicket(s)).json;
    const other = s.ws.other.keys.full;
    return [
      (await s.call('PATCH', `/v1/tickets/${t.id}`, other, { subject: 'x' })).status,
      (await s.call('POST', `/v1/tickets/${t.id}/close`, other)).status,
      (await s.call('POST', `/v1/tickets/${t.id}/messages`, other, { body: 'b', author: 'agent' }))
        .status,
    ];
  },
  crossWorkspaceList: async (s) => {
    const t = (await createTicket(s)).json;
    const j = (await s.call('GET', '/v1/tickets?limit=100', s.ws.other.keys.full)).json;
    // A list without its tickets (list-without-tickets) shows none of them either.
    const data: Array<{ id: string }> = (Array.isArray(j) ? j : j?.data) ?? [];
    return data.some((x) => x.id === t.id);
  },
  // An unknown API path spelled two more ways, with the Team key: whose X-RateLimit-Limit answers.
  barePrefixLimit: async (s) =>
    (await s.call('GET', '/v1', s.ws.team.keys.full)).headers['x-ratelimit-limit'],
  // inject() sends origin form only: the absolute form goes over a real socket, as the suite sends it.
  absoluteFormLimit: async (s) => {
    const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await undiciTransport({ absoluteForm: true }).send({
      method: 'GET',
      url: new URL(`${base}/v1/no-such-resource`),
      headers: [['authorization', `Bearer ${s.ws.team.keys.full}`]],
      timeoutMs: 5000,
    });
    return 'error' in a ? a.error : a.headers['x-ratelimit-limit'];
  },
  // The media type a JSON success is labelled with.
  okContentType: async (s) =>
    String((await s.call('GET', '/v1/tickets', s.ws.team.keys.full)).headers['content-type']).split(
      ';',
    )[0],
  // Whether a refusal for the key (none sent) carries a ticket the service holds.
  refusalCarriesTicket: async (s) => {
    const t = (await createTicket(s)).json;
    const r = await s.call('GET', '/v1/tickets');
    return r.status >= 400 && r.text.includes(t.id);
  },
  // X-RateLimit-Remaining on the 429 of a workspace allowed one request a minute.
  refusedRemaining: async (s) => {
    const made = (
      await s.admin('POST', '/admin/workspaces', { plan: 'enterprise', rate: 1, burst: 1 })
    ).json;
    const key = made.keys[0].key;
    await s.call('GET', '/v1/tickets', key);
    const r = await s.call('GET', '/v1/tickets', key);
    return [r.status, r.headers['x-ratelimit-remaining'] ?? null];
  },
  headersOn404: async (s) =>
    'x-ratelimit-limit' in
    (await s.call('GET', '/v1/tickets/tkt_none', s.ws.team.keys.full)).headers,
  headersOn200: async (s) =>
    'x-ratelimit-limit' in (await s.call('GET', '/v1/tickets', s.ws.team.keys.full)).headers,
  // --- probes of the assumed ticket rules (U1, U4, U6–U9, SLA) ---------------------------------
  slaAfterPriorityChange: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket({ priority: 'low' }))).json;
    return hours((await s.call('PATCH', `/v1/tickets/${t.id}`, key, { priority: 'high' })).json);
  },
  getPriority: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket({ priority: 'low' }))).json;
    return (await s.call('GET', `/v1/tickets/${t.id}`, key)).json.priority;
  },
  patchSubject: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    return (await s.call('PATCH', `/v1/tickets/${t.id}`, key, { subject: 'patched' })).json.subject;
  },
  closeTwice: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    await s.call('POST', `/v1/tickets/${t.id}/close`, key);
    return (await s.call('POST', `/v1/tickets/${t.id}/close`, key)).status;
  },
  priorityFilter: async (s) => {
    const key = s.ws.team.keys.full;
    await s.call('POST', '/v1/tickets', key, newTicket({ priority: 'low' }));
    const j = (await s.call('GET', '/v1/tickets?priority=high&limit=100', key)).json;
    return (
      Array.isArray(j?.data) && j.data.every((t: { priority: string }) => t.priority === 'high')
    );
  },
  closedFilter: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    await s.call('POST', `/v1/tickets/${t.id}/close`, key);
    const j = (await s.call('GET', '/v1/tickets?status=closed&limit=100', key)).json;
    return Array.isArray(j?.data) && j.data.some((x: { id: string }) => x.id === t.id);
  },
  internalNote: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    const note = { body: 'check logs', author: 'agent', internal: true };
    return (await s.call('POST', `/v1/tickets/${t.id}/messages`, key, note)).json.internal;
  },
  customerReplyReopens: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    await s.call('PATCH', `/v1/tickets/${t.id}`, key, { status: 'pending' });
    await s.call('POST', `/v1/tickets/${t.id}/messages`, key, { body: 'hi', author: 'customer' });
    return (await s.call('GET', `/v1/tickets/${t.id}`, key)).json.status;
  },
  formBody: async (s) =>
    (
      await createTicket(s, 'subject=x', {
        'content-type': 'application/x-www-form-urlencoded',
      })
    ).status,
  // --- contacts, macros, rules, reports (U10) ---------------------------------------------------
  contactCreate: async (s) => {
    const r = await s.call('POST', '/v1/contacts', s.ws.team.keys.full, {
      email: 'grace@example.com',
      name: 'Grace Hopper',
    });
    return [r.status, r.json.name ?? null];
  },
  newestListed: async (s) => {
    // Its own workspace: the rule it creates must not act on the other probes' tickets.
    const key = s.ws.enterprise.keys.full;
    const c = (await s.call('POST', '/v1/contacts', key, { email: 'new@example.com' })).json;
    const rule = (
      await s.call('POST', '/v1/rules', key, {
        name: 'r',
        event: 'ticket.created',
        conditions: { tag: 'never-matches' },
        actions: { tags_add: ['x'] },
      })
    ).json;
    const ids = async (p: string) =>
      (await s.call('GET', p, key)).json.data.map((x: { id: string }) => x.id);
    return [
      (await ids('/v1/contacts?limit=100')).includes(c.id),
      (await ids('/v1/rules')).includes(rule.id),
    ];
  },
  macroApplied: async (s) => {
    const key = s.ws.team.keys.full;
    const macros = (await s.call('GET', '/v1/macros', key)).json.data;
    const escalate = macros.find((m: { name: string }) => m.name === 'Escalate');
    const t = (await s.call('POST', '/v1/tickets', key, newTicket({ priority: 'low' }))).json;
    const a = (await s.call('POST', `/v1/macros/${escalate.id}/apply`, key, { ticket_id: t.id }))
      .json;
    return [a.priority, a.tags];
  },
  rules: async (s) => {
    const key = s.ws.growth.keys.full;
    await s.call('POST', '/v1/rules', key, {
      name: 'vip',
      event: 'ticket.created',
      conditions: { tag: 'vip' },
      actions: { tags_add: ['fast-lane'] },
    });
    const tagsOf = async (tags: string[]) =>
      (await s.call('POST', '/v1/tickets', key, newTicket({ tags }))).json.tags;
    return [await tagsOf(['vip']), await tagsOf(['other'])];
  },
  ruleOtherWorkspace: async (s) => {
    // Growth's rule; a Team ticket carrying its condition tag must not get its action.
    await s.call('POST', '/v1/rules', s.ws.growth.keys.full, {
      name: 'growth only',
      event: 'ticket.created',
      conditions: { tag: 'growth-rule' },
      actions: { tags_add: ['growth-added'] },
    });
    return (await createTicket(s, newTicket({ tags: ['growth-rule'] }))).json.tags;
  },
  reportSums: async (s) => {
    const key = s.ws.team.keys.full;
    await s.call('POST', '/v1/tickets', key, newTicket({ priority: 'normal' }));
    const r = (await s.call('GET', '/v1/reports/summary', key)).json.tickets;
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    return [r.total === sum(r.by_status), r.total === sum(r.by_priority)];
  },
  // The other workspace's report after the Team workspace's tickets: it counts only its own.
  reportOtherWorkspace: async (s) => {
    await createTicket(s);
    return (await s.call('GET', '/v1/reports/summary', s.ws.other.keys.full)).json.tickets.total;
  },
  // --- validation (U16, U20, U21, U26) ----------------------------------------------------------
  malformedJson: async (s) => (await createTicket(s, '{"subject": "half",')).status,
  tooLarge: async (s) =>
    (await createTicket(s, JSON.stringify(newTicket({ subject: 'a'.repeat(1024 * 1024 + 10) }))))
      .status,
  unknownTicket: async (s) =>
    (await s.call('GET', '/v1/tickets/tkt_none', s.ws.team.keys.full)).status,
  problemStatusField: async (s) =>
    (await s.call('GET', '/v1/tickets/tkt_none', s.ws.team.keys.full)).json?.status ?? null,
  validationFields: async (s) =>
    (
      (
        await createTicket(s, {
          requester: { email: 'a@b.io' },
        })
      ).json?.errors ?? []
    ).map((e: { field: string }) => e.field),
  // --- auth and isolation -----------------------------------------------------------------------
  readOnlyWriteCode: async (s) =>
    (await s.call('POST', '/v1/tickets', s.ws.team.keys.readOnly, newTicket())).json?.code ?? null,
  readOnlyRead: async (s) => (await s.call('GET', '/v1/tickets', s.ws.team.keys.readOnly)).status,
  rotatedNewKey: async (s) => {
    const issued = (await s.admin('POST', `/admin/workspaces/${s.ws.growth.id}/keys`, {})).json;
    const fresh = (await s.admin('POST', `/admin/keys/${issued.id}/rotate`)).json.key;
    return (await s.call('GET', '/v1/tickets', fresh)).status;
  },
  // The X-RateLimit values of a read, a write and the read after it, on a key no other probe uses.
  rateValues: async (s) => {
    const key = s.ws.other.keys.full2;
    const values = (r: { headers: Record<string, unknown> }) =>
      ['limit', 'remaining', 'reset'].map((n) => r.headers[`x-ratelimit-${n}`]);
    const read = await s.call('GET', '/v1/tickets', key);
    const write = await s.call('POST', '/v1/tickets', key, newTicket());
    const again = await s.call('GET', '/v1/tickets', key);
    return [values(read), values(write), values(again)];
  },
  foreignPatchApplied: async (s) => {
    const key = s.ws.team.keys.full;
    const t = (await s.call('POST', '/v1/tickets', key, newTicket())).json;
    await s.call('PATCH', `/v1/tickets/${t.id}`, s.ws.other.keys.full, { subject: 'taken over' });
    return (await s.call('GET', `/v1/tickets/${t.id}`, key)).json.subject;
  },
};

/** fault → the probes it must change (and no other). */
const EXPECTED: Partial<Record<FaultName, string[]>> = {
  'create-status-new': ['createStatus'],
  'subject-not-required': ['missingSubject', 'validationFields'],
  'created-at-no-utc': ['createdAtUtc'],
  'sla-missing': ['slaPresent', 'slaHours', 'slaAfterPriorityChange'],
  'sla-ignores-priority': ['slaHours', 'slaAfterPriorityChange'],
  'priority-ignored': [
    'priorityEcho',
    'slaHours',
    'slaAfterPriorityChange',
    'getPriority',
    'macroApplied',
  ],
  'requester-not-echoed': ['requesterEcho'],
  'missing-requester-500': ['missingRequester'],
  'subject-astral-500': ['astralSubject'],
  'subject-over-300-500': ['longSubject'],
  'tags-over-20-500': ['manyTags'],
  'subject-astral-replaced': ['astralSubject'],
  'list-without-tickets': [
    'listShape',
    'unfilteredListed',
    'paginationDuplicates',
    'paginationGaps',
    'priorityFilter',
    'closedFilter',
  ],
  // Only a request without `limit`: every other probe's list read sends one.
  'list-default-limit-zero': ['unfilteredListed'],
  'pagination-overlap': ['paginationDuplicates'],
  'pagination-skips-one': ['paginationGaps'],
  'close-keeps-status': ['closeStatus', 'closedFilter'],
  // Without a key, the first workspace's ticket is its own: read by id too.
  'missing-key-accepted': ['missingKey', 'getTicketNoKey'],
  // Only keys it never issued: a rotated one is still refused (rotated-key-works is that).
  'invalid-key-accepted': ['invalidKey', 'wwwAuthOnInvalid'],
  'readonly-can-write': ['readOnlyWrite', 'readOnlyWriteCode'],
  'rotated-key-works': ['rotatedOldKey'],
  'cross-workspace-read': ['crossWorkspaceGet'],
  'get-ticket-no-auth': ['getTicketNoKey'],
  // Every request without a valid key: none, unknown, rotated, not a bearer token.
  'keyless-429': [
    'missingKey',
    'invalidKey',
    'wwwAuthOnInvalid',
    'rotatedOldKey',
    'getTicketNoKey',
    'malformedAuthorization',
  ],
  'malformed-authorization-accepted': ['malformedAuthorization'],
  'get-contact-cross-workspace': ['crossWorkspaceContact'],
  // rateValues and the unknown-path spellings read the headers a Team-plan key gets.
  'team-limit-header-600': [
    'planLimitHeaders',
    'rateValues',
    'barePrefixLimit',
    'absoluteFormLimit',
  ],
  'list-leaks-workspaces': ['crossWorkspaceList'],
  // The unknown-path spellings are 404s too, and a 429 is a 4xx.
  'ratelimit-headers-missing-on-4xx': [
    'headersOn404',
    'barePrefixLimit',
    'absoluteFormLimit',
    'refusedRemaining',
  ],
  'ratelimit-remaining-negative': ['rateValues', 'refusedRemaining'],
  '429-remaining-positive': ['refusedRemaining'],
  'json-as-text-plain': ['okContentType'],
  '401-with-data': ['refusalCarriesTicket'],
  'ratelimit-limit-on-writes': ['rateValues'],
  'bare-prefix-outside-api': ['barePrefixLimit'],
  'absolute-form-outside-api': ['absoluteFormLimit'],
  'ratelimit-static-headers': ['rateValues', 'planLimitHeaders'],
  'ratelimit-remaining-frozen': ['rateValues'],
  'sla-reversed': ['slaHours', 'slaAfterPriorityChange'],
  'get-priority-normal': ['getPriority'],
  'patch-subject-ignored': ['patchSubject'],
  'filter-stale-status': ['closedFilter'],
  'contact-name-dropped': ['contactCreate'],
  'list-skips-newest': ['newestListed'],
  'macro-tags-ignored': ['macroApplied'],
  'rules-never-run': ['rules'],
  'rule-conditions-ignored': ['rules'],
  'rules-cross-workspace': ['ruleOtherWorkspace'],
  'report-skips-normal': ['reportSums'],
  'report-counts-every-workspace': ['reportOtherWorkspace'],
  'body-too-large-400': ['tooLarge'],
  'problem-status-400': ['problemStatusField'],
  'validation-errors-missing': ['validationFields'],
  'readonly-cannot-read': ['readOnlyRead'],
  'rotated-new-key-inactive': ['rotatedNewKey'],
  'foreign-write-accepted': ['crossWorkspaceWrite', 'foreignPatchApplied'],
  'foreign-write-applied-404': ['foreignPatchApplied'],
};

async function observe(faults: string[]): Promise<Record<string, string>> {
  const s = makeService({ faults });
  try {
    const out: Record<string, string> = {};
    for (const [name, probe] of Object.entries(PROBES)) out[name] = JSON.stringify(await probe(s));
    return out;
  } finally {
    await s.close();
  }
}

describe('contract faults change exactly what they name', () => {
  let baseline: Record<string, string> = {};
  before(async () => {
    baseline = await observe([]);
  });

  test('every contract fault of the catalogue has an expectation here', () => {
    const contractFaults = FAULTS.filter((f) => f.area === 'contracts')
      .map((f) => f.name)
      .sort();
    assert.deepEqual(Object.keys(EXPECTED).sort(), contractFaults);
  });

  for (const [fault, expected] of Object.entries(EXPECTED)) {
    test(fault, async () => {
      const seen = await observe([fault]);
      const changed = Object.keys(PROBES).filter((p) => seen[p] !== baseline[p]);
      assert.deepEqual(
        changed.sort(),
        [...expected].sort(),
        JSON.stringify({ baseline, seen }, null, 1),
      );
    });
  }
});

describe('the catalogue', () => {
  test('at least 25 faults, unique names, each saying what it does and naming a check', () => {
    assert.ok(FAULTS.length >= 25, `only ${FAULTS.length} faults`);
    assert.equal(new Set(FAULTS.map((f) => f.name)).size, FAULTS.length, 'duplicate fault names');
    for (const f of FAULTS) {
      assert.ok(f.check.length > 3 && f.does.length > 5, `${f.name} is underspecified`);
    }
  });

  test('every fault names a check that exists (contract/webhook checks, or a load verdict id)', () => {
    const verdictIds = new Set<string>(VERDICT_IDS);
    for (const f of FAULTS) {
      const known = f.area === 'limits' ? verdictIds.has(f.check) : checks.has(f.check);
      assert.ok(known, `${f.name} names unknown check '${f.check}'`);
    }
  });

  test('a fault holds no rule or provenance of its own: both are its check’s', () => {
    for (const f of FAULTS) {
      // alsoFails names other checks and why, never a rule or a provenance of the fault's own;
      // caughtAs says how the check catches it (kept unchecked instead of failed), not what rule.
      const keys = Object.keys(f).filter((k) => k !== 'alsoFails' && k !== 'caughtAs');
      assert.deepEqual(keys.sort(), ['area', 'check', 'does', 'name'], f.name);
      for (const a of f.alsoFails ?? [])
        assert.deepEqual(Object.keys(a).sort(), ['check', 'why'], `${f.name} → ${a.check}`);
      for (const a of f.alsoFails ?? [])
        assert.ok(checks.has(a.check), `${f.name}: ${a.check} is a check`);
      const own = ruleOf(f);
      if (f.area === 'limits') {
        const v = verdictRule(f.check as VerdictId);
        assert.equal(own.rule, v.gap ? `${v.gap}: ${v.title}` : v.title, f.name);
        assert.equal(own.provenance, v.provenance, f.name);
      } else {
        const c = checks.get(f.check as CheckName);
        assert.deepEqual(own, { provenance: c.provenance, rule: c.rule }, f.name);
      }
    }
  });

  test('an unknown fault name is an error, not a silent no-op', () => {
    assert.throws(
      () => makeService({ faults: ['no-such-fault'] }),
      /unknown fault 'no-such-fault'/,
    );
  });
});
