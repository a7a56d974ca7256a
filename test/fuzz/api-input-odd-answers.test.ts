/**
 * The input fuzz's judge never throws on what a target sent or accepted: for instance (a
 * PATCH whose subject is an array nested 4111 deep, answered 200 by a deployment that ignored the
 * field — JSON.stringify of the sent value overflowed the stack and the fuzz "could not run"),
 * bodies that are no object, answers that are null, arrays, 10 000 deep or a mebibyte long. Each
 * is judged: an invalid body accepted is a warning under its assumed rule, documented only where
 * the docs give the rule (the creation input).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Exchange } from '../../core/checks/types.ts';
import { deepJsonText } from '../../fuzz/arbitraries/body-cases/deep-junk.ts';
import { type CaseInput, judgeCase } from '../../fuzz/api-input/judge.ts';
import {
  acceptedInvalidProblem,
  documentedCreationProblem,
} from '../../fuzz/api-input/invalid-accepted.ts';
import { type ApiInputOperation, inputOperation } from '../../fuzz/api-input/operations.ts';

const TICKET = {
  id: 'tkt_1',
  subject: 'before',
  status: 'open',
  priority: 'normal',
  requester: { email: 'a@example.com' },
  sla: { first_response_due: '2026-01-01T04:00:00Z' },
  created_at: '2026-01-01T00:00:00Z',
};

function answer(operation: ApiInputOperation, status: number, bodyText: string): Exchange {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  const ct = status >= 400 ? 'application/problem+json' : 'application/json';
  return {
    request: { method: 'PATCH', url: 'http://127.0.0.1:9/v1/tickets/tkt_1', headers: {} },
    response: { status, headers: { 'content-type': ct }, bodyText, json },
    durationMs: 1,
    operation: inputOperation(operation).spec,
  };
}

const invalid = (kind: CaseInput['kind'], note: string): CaseInput => ({
  kind,
  note,
  schemaValid: false,
});

for (const depth of [4111, 10_000]) {
  test(`a subject nested ${depth} deep, accepted and ignored, is a U20 warning`, () => {
    const sent = JSON.parse(`{"subject":${deepJsonText(depth, 'array')}}`);
    const ex = answer('updateTicket', 200, JSON.stringify(TICKET));
    const found = judgeCase(
      'updateTicket',
      ex,
      sent,
      TICKET,
      TICKET,
      invalid('deep-junk', `array nested ${depth} deep at subject`),
    );
    assert.deepEqual(
      found.map((p) => [p.broken.check, p.broken.provenance]),
      [['validation.status-422', 'assumed']],
    );
    assert.match(found[0]!.reason, /^200 for the deep-junk body/);
  });
}

test('odd answers and bodies are judged, never thrown on', () => {
  let deep = '"bottom"';
  for (let i = 0; i < 10_000; i++) deep = `[${deep}]`;
  const bodies = [
    'null',
    '[]',
    '"a string"',
    '42',
    deep,
    `{"subject":"${'x'.repeat(1024 * 1024)}"}`,
    '\u00ff\u00fe not JSON',
    `{"id":"tkt_1","subject":${deep}}`,
  ];
  const sents: unknown[] = [undefined, null, 5, 'x', [], { subject: 5 }, JSON.parse(deep)];
  for (const operation of ['createTicket', 'updateTicket', 'addMessage'] as const)
    for (const status of [200, 201, 400, 422, 500])
      for (const body of bodies)
        for (const sent of sents) {
          const ex = answer(operation, status, body);
          const before = operation === 'createTicket' ? 3 : TICKET;
          const after = operation === 'createTicket' ? 4 : ex.response!.json;
          const found = judgeCase(operation, ex, sent, before, after, invalid('wrong-type', 'odd'));
          assert.ok(Array.isArray(found));
          for (const p of found) assert.ok(p.reason.length < 10_000, p.reason.slice(0, 200));
        }
});

test('the creation input rules the docs give, and only those, are documented', () => {
  const requester = { email: 'a@example.com' };
  assert.equal(documentedCreationProblem({ subject: 's', requester }), undefined);
  // Lengths, the requester's keys and unknown fields are assumptions (U3, U26).
  assert.equal(documentedCreationProblem({ subject: '', requester: {}, extra: 1 }), undefined);
  assert.equal(documentedCreationProblem(undefined), 'the body is not JSON');
  assert.equal(documentedCreationProblem([]), 'the body is not a JSON object');
  assert.equal(documentedCreationProblem({ requester }), 'subject is missing');
  assert.equal(documentedCreationProblem({ subject: [], requester }), 'subject is not a string');
  assert.equal(documentedCreationProblem({ subject: 's' }), 'requester is missing');
  assert.equal(
    documentedCreationProblem({ subject: 's', requester, priority: 'urgent' }),
    'priority is not one of low, normal, high',
  );
  assert.equal(
    documentedCreationProblem({ subject: 's', requester, tags: [1] }),
    'tags is not an array of strings',
  );
});

test('which rule an accepted invalid body breaks', () => {
  const created = answer('createTicket', 201, JSON.stringify(TICKET));
  const rule = (op: ApiInputOperation, kind: CaseInput['kind'], sent: unknown, ex = created) =>
    acceptedInvalidProblem(op, { kind, note: 'n' }, ex, sent, false)?.broken;
  assert.equal(rule('createTicket', 'drop-required', {})?.check, 'validation.invalid-rejected');
  assert.equal(rule('createTicket', 'drop-required', {})?.provenance, 'documented');
  assert.equal(rule('createTicket', 'malformed-json', undefined)?.provenance, 'documented');
  const okCreate = { subject: 's', requester: { email: 'a@example.com' } };
  assert.equal(rule('createTicket', 'too-long', okCreate)?.check, 'validation.status-422');
  assert.equal(
    rule('createTicket', 'over-body-limit', okCreate)?.check,
    'validation.too-large-413',
  );
  assert.equal(
    rule('updateTicket', 'malformed-json', undefined)?.check,
    'validation.malformed-400',
  );
  assert.equal(rule('updateTicket', 'wrong-type', { subject: 1 })?.provenance, 'assumed');
  // Not accepted, valid, or only a Content-Type label: nothing to say here.
  assert.equal(
    rule('updateTicket', 'wrong-type', {}, answer('updateTicket', 422, '{}')),
    undefined,
  );
  assert.equal(rule('createTicket', 'media-type', okCreate), undefined);
  assert.equal(
    acceptedInvalidProblem('createTicket', { kind: 'valid', note: 'v' }, created, okCreate, true),
    undefined,
  );
});

test('an internal error on a case names the case and lets the fuzz go on', async () => {
  const { guardCase } = await import('../../fuzz/api-input/api-input.ts');
  const internal = { count: 0 } as { count: number; first?: string };
  const judged = guardCase(async (c) => {
    if (c.kind === 'deep-junk') throw new RangeError('Maximum call stack size exceeded');
    return true;
  }, internal);
  const deepCase = {
    kind: 'deep-junk' as const,
    note: 'array nested 4111 deep at subject',
    raw: `{"subject":${deepJsonText(4111, 'array')}}`,
  };
  assert.equal(await judged({ kind: 'valid', note: 'valid', json: {} }), true);
  assert.equal(await judged(deepCase), true);
  assert.equal(await judged(deepCase), true);
  assert.equal(internal.count, 2);
  assert.equal(
    internal.first,
    `internal error on a deep-junk case (array nested 4111 deep at subject), a body of ${deepCase.raw.length} bytes: RangeError: Maximum call stack size exceeded`,
  );
});
