/**
 * The rule × operation matrix on the HTML page: one row per rule, one column per operation and
 * webhook event, each cell readable without hovering (✓ n, ✗ f/n, —, ?) and every "not reached"
 * reason listed under the table; a run without contract tests says no rule was judged.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import { matrixColumns, matrixRules } from '../../core/checks/applies-to.ts';
import { operations, webhookEvents } from '../../core/spec/operations.ts';
import { renderHtml } from '../../report/html.ts';
import { buildRuleMatrix } from '../../report/rule-matrix.ts';
import { judgement } from '../harness/judgement-fixture.ts';
import { summaryFixture } from '../harness/summary-fixture.ts';

const base = summaryFixture({
  verdict: 'fail',
  exitCode: 1,
  tests: { passed: 1, failed: 1, skipped: 0, total: 2 },
});

const section = (html: string) =>
  /<section id="matrix">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';

test('rows are rules, columns operations and events; cells say checked, failed, n/a or not reached', () => {
  const rules = matrixRules(ALL_CHECKS);
  const cols = matrixColumns(operations(), webhookEvents());
  const matrix = buildRuleMatrix(
    cols,
    rules,
    [
      judgement('auth.missing-key-rejected', 'getTicket', true),
      judgement('auth.missing-key-rejected', 'getTicket', false),
    ],
    [
      {
        check: 'auth.readonly-forbidden',
        column: 'createTicket',
        reason: 'not run: needs HARNESS_READONLY_KEY (a read-only key of the same workspace)',
      },
    ],
  );
  const html = section(renderHtml({ ...base, matrix }));
  assert.equal((html.match(/<tr><td class="rule"/g) ?? []).length, rules.length);
  assert.equal((html.match(/<th class="col"/g) ?? []).length, cols.length);
  assert.match(
    html,
    /<th class="col" title="GET \/v1\/tickets\/\{ticket_id\} \(assumed\)">getTicket<\/th>/,
  );
  assert.match(html, /<th class="col"[^>]*>ticket\.created<\/th>/);
  assert.match(html, /<td class="fail" title="1 of 2 judgements failed">✗ 1\/2<\/td>/);
  assert.match(
    html,
    /<td class="na" title="not applicable: not a write \(x-scope: read\)[^"]*">—<\/td>/,
  );
  assert.match(html, /Not reached on this target/);
  assert.match(html, /needs HARNESS_READONLY_KEY/);
  assert.match(html, /auth\.readonly-forbidden × createTicket/);
  assert.match(html, /1 with a failure/);
});

test('no contract test ran: the section says nothing was judged', () => {
  assert.match(section(renderHtml(base)), /No contract test ran in this run/);
});
