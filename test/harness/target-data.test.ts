/**
 * Every pass over a target's answer (bench/lib/target-data-passes.ts: redaction, repro,
 * transcript, schema errors, the checks, the exchange log, snapshot shape and compare, console,
 * HTML) handles what a long-lived staging sends — a 1 MiB one-word body, a list whose ticket's
 * subject is one 1 MiB word, an array nested 10 000 deep — without throwing, with output that is
 * right and bounded and says what it cut. No timing is asserted (bench/target-data.ts measures
 * it): a pass that went quadratic on the 1 MiB word would take minutes and show as a timeout.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Answer,
  deepArray,
  exchangeOf,
  MiB,
  PASSES,
  summaryOf,
  wordBody,
  wordSubjectList,
} from '../../bench/lib/target-data-passes.ts';
import { curlRepro } from '../../core/checks/repro.ts';
import { loggableExchange } from '../../core/http/exchange-log.ts';
import { redact } from '../../core/redact.ts';
import { renderExchange } from '../../fuzz/shared/transcript.ts';
import { renderConsole } from '../../report/console.ts';
import { renderHtml } from '../../report/html.ts';
import { buildSnapshot } from '../../report/snapshot.ts';

const ANSWERS: Answer[] = [wordBody(MiB), wordSubjectList(MiB), deepArray(10_000)];

/** Characters of any one output: far below the answer, whatever its size. */
const BOUND = 200_000;

const size = (v: unknown) => (typeof v === 'string' ? v.length : JSON.stringify(v ?? null).length);

for (const a of ANSWERS) {
  describe(a.name, () => {
    for (const p of PASSES) {
      test(`${p.name}: no throw, bounded output`, { timeout: 120_000 }, () => {
        const out = p.run(a);
        // Redaction returns the whole text by design (linear, bounded by the input); the
        // others show a bounded part of it.
        if (p.name !== 'redact') assert.ok(size(out) < BOUND, `${p.name}: ${size(out)} characters`);
      });
    }
  });
}

test('redaction of a 1 MiB word returns it unchanged', { timeout: 60_000 }, () => {
  const word = 'x'.repeat(MiB);
  assert.equal(redact(word), word);
});

test('a repro and a transcript say how much of a 1 MiB body they show', () => {
  const a = wordSubjectList(MiB);
  const repro = curlRepro(exchangeOf(a, a.bodyText));
  assert.match(repro, /… \(1048\d+ bytes, first 2000 shown\)/);
  const transcript = renderExchange(exchangeOf(a, a.bodyText));
  assert.match(transcript, /… \(1048\d+ bytes, first \d+ shown\)/);
});

test('the exchange log keeps a large answer as a prefix, its size and its shape', () => {
  const row = loggableExchange(exchangeOf(wordSubjectList(MiB)));
  assert.equal(row.json, undefined);
  assert.match(row.bodyPrefix ?? '', /bytes, first 4096 shown\)$/);
  assert.deepEqual(row.shape, {
    object: {
      data: {
        array: {
          object: {
            created_at: 'string',
            id: 'string',
            priority: 'string',
            requester: { object: { email: 'string', name: 'string' } },
            sla: { object: { first_response_due: 'string' } },
            status: 'string',
            subject: 'string',
            tags: { array: 'string' },
          },
        },
      },
      has_more: 'boolean',
      next_cursor: 'null',
    },
  });
  // The snapshot reads the shape from the row as it read it from the body.
  const snap = buildSnapshot('t', [{ test: 't', ...row }], []);
  assert.deepEqual(snap.operations['GET /v1/tickets']!.statuses['200']!.shape, row.shape);
});

test('a 10 000-deep array: its shape stops at 32 levels, the schema check names the path', () => {
  const a = deepArray(10_000);
  const row = loggableExchange(exchangeOf(a));
  let shape: unknown = row.shape;
  for (let i = 0; i < 32; i++) shape = (shape as { array: unknown }).array;
  assert.equal(shape, 'nested-deeper');
  const summary = summaryOf(exchangeOf(a));
  const schema = summary.areas.contracts!.assumptionMismatches.find(
    (f) => f.check === 'exchange.response-schema',
  );
  assert.match(schema?.received ?? '', /^200 body: \/ must be object/);
});

test('console and page carry the failure on a 1 MiB body, cut and said so', () => {
  const s = summaryOf(exchangeOf(wordBody(MiB)));
  const documented = s.areas.contracts!.documentedFailures;
  assert.ok(
    documented.some((f) => f.check === 'exchange.json-body'),
    documented.map((f) => f.check).join(', '),
  );
  const text = renderConsole(s, 'reports/latest');
  assert.match(text, /\[exchange\.json-body\] documented rule broken/);
  assert.match(text, /body not JSON: "x{79}…/);
  const html = renderHtml(s);
  assert.match(html, /exchange\.json-body/);
  assert.ok(html.length < BOUND);
});
