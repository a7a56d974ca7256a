/**
 * The input fuzz names the rule a failing case broke: the registered check where the contract
 * suite judges the same rule (its name, provenance and wording come from the registry), or one of
 * the fuzz's own rules — never every failure under exchange.no-5xx.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API_INPUT_RULES, apiInputFailures, catalogueRule } from '../../fuzz/api-input/rules.ts';
import { checks } from '../../core/checks/index.ts';

test('a catalogue rule is the registered check, word for word', () => {
  for (const name of [
    'exchange.no-5xx',
    'exchange.response-schema',
    'validation.problem-body',
    'tickets.merge-patch',
  ] as const) {
    const c = checks.get(name);
    assert.deepEqual(catalogueRule(name), { check: name, provenance: c.provenance, rule: c.rule });
  }
});

test('the fuzz’s own rules are not registered checks (no second judge of a catalogue rule)', () => {
  for (const r of Object.values(API_INPUT_RULES)) assert.equal(checks.has(r.check), false, r.check);
});

test('failed operations become failures under their rule; passed ones none', () => {
  const schema = catalogueRule('exchange.response-schema');
  const fs = apiInputFailures({
    operations: [
      { operation: 'createTicket', status: 'passed' },
      {
        operation: 'updateTicket',
        status: 'failed',
        reason: '200 with a body that is not a valid Ticket: /status …',
        broken: schema,
        counterexample: { transcript: '> PATCH /v1/tickets/t_1 HTTP/1.1' },
      },
    ],
  });
  assert.equal(fs.length, 1);
  assert.equal(fs[0]!.check, 'exchange.response-schema');
  assert.equal(fs[0]!.provenance, 'assumed', 'an assumed shape is an assumption mismatch');
  assert.match(fs[0]!.rule, /^updateTicket: /);
  assert.equal(fs[0]!.repro, '> PATCH /v1/tickets/t_1 HTTP/1.1');
});
