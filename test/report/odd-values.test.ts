/**
 * Every odd value a long-lived staging holds (server/seed-tickets.ts: emoji, RTL and bidi
 * controls, NUL and other control characters, lone surrogates, markup, a secret-shaped line
 * pasted from a terminal) is carried through the reports intact and safe: the exchange log and
 * summary.json keep it exactly (a secret-shaped token masked, the document still JSON), the
 * console shows control and bidi characters as escapes instead of acting on them, the page
 * escapes markup, junit.xml holds only XML characters.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Failure } from '../../core/checks/types.ts';
import { loggableExchange } from '../../core/http/exchange-log.ts';
import { junitXml } from '../../core/junit.ts';
import { redactValue } from '../../core/redact.ts';
import { renderConsole } from '../../report/console.ts';
import { renderHtml } from '../../report/html.ts';
import { junitSuites } from '../../report/run-junit.ts';
import type { Summary } from '../../report/summary.ts';
import { ODD_NAMES, ODD_SUBJECTS, prng } from '../../server/seed-tickets.ts';

const rng = prng(23);
const ODD = [
  'non-characters \ufffe\uffff of a careless client',
  ...ODD_SUBJECTS.map((f) => f(rng, 7)).filter((s) => s.length < 2000),
  ...ODD_NAMES,
];
/** What the redaction masks in them: the pasted admin token (by its shape). */
const masked = (s: string) => s.replace(/(X-Admin-Token: )\S+/, '$1[REDACTED]');

const ticket = (subject: string, i: number) => ({
  id: `tkt_${i}`,
  subject,
  status: 'open',
  requester: { email: 'customer@example.com', name: ODD_NAMES[i % ODD_NAMES.length] },
});

describe('odd values of a long-lived staging through the reports', () => {
  test('the exchange log: the page parses back, every value as it was (secrets masked)', () => {
    const json = { data: ODD.map(ticket), has_more: true, next_cursor: 'c' };
    const logged = loggableExchange({
      request: { method: 'GET', url: 'http://staging/v1/tickets?limit=100', headers: {} },
      response: { status: 200, headers: {}, bodyText: JSON.stringify(json), json },
      durationMs: 3,
    });
    const back = JSON.parse(JSON.stringify(logged)) as { json: typeof json };
    assert.deepEqual(
      back.json.data.map((t) => t.subject),
      ODD.map(masked),
    );
    assert.deepEqual(
      back.json.data.map((t) => t.requester.name),
      ODD.map((_, i) => ODD_NAMES[i % ODD_NAMES.length]),
    );
  });

  const failure = (provenance: Failure['provenance'], received: string): Failure => ({
    check: provenance === 'documented' ? 'tickets.status-code' : 'tickets.filter-applied',
    provenance,
    rule: 'a rule',
    received,
    expected: 'something else',
    repro: `curl -sS 'http://staging/v1/tickets' --data-raw '${received.replace(/'/g, "'\\''")}'`,
  });
  const summary: Summary = {
    schema: 'harness/summary',
    version: 1,
    runId: 'odd',
    startedAt: new Date(0).toISOString(),
    durationMs: 1000,
    target: { baseUrl: 'http://staging', embedded: false, faults: [] },
    strict: false,
    verdict: 'fail',
    exitCode: 1,
    areas: {
      fuzz: {
        verdict: 'fail',
        headline: 'odd',
        documentedFailures: ODD.slice(0, 8).map((s) => failure('documented', s)),
        assumptionMismatches: ODD.slice(8).map((s) => failure('assumed', s)),
        notRun: [],
      },
    },
    checks: [],
    tests: { passed: 0, failed: 1, skipped: 0, total: 1 },
  };

  test('summary.json: every value intact', () => {
    const back = JSON.parse(JSON.stringify(redactValue(summary))) as Summary;
    const received = [
      ...back.areas.fuzz!.documentedFailures,
      ...back.areas.fuzz!.assumptionMismatches,
    ].map((f) => f.received);
    assert.deepEqual(received, ODD.map(masked));
  });

  test('the console: control, C1, separator and bidi characters shown as escapes, never raw', () => {
    const out = renderConsole(summary, '/tmp/out');
    const unsafe = out.match(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/,
    );
    assert.equal(unsafe, null, `raw ${JSON.stringify(unsafe?.[0])} on the console`);
    assert.match(out, /null\\u\{0000\}byte/);
    assert.match(out, /escape \\u\{001b\}\[31mred/);
    assert.match(out, /invoice \\u\{202e\}fdp\.exe\\u\{202c\}/);
    assert.match(out, /لا أستطيع تسجيل الدخول/, 'right-to-left text itself is shown');
    assert.match(out, /🔥 Checkout down/);
  });

  test('the page escapes markup; junit.xml holds only XML 1.0 characters', () => {
    const html = renderHtml(summary);
    assert.doesNotMatch(html, /<script>alert|<img src=x/);
    assert.match(html, /&lt;script&gt;alert\(&quot;harness&quot;\)&lt;\/script&gt;/);
    const xml = Buffer.from(junitXml(junitSuites(summary, [])), 'utf8').toString('utf8');
    assert.doesNotMatch(xml, /<script>|<img/);
    assert.match(xml, /of a careless client/, 'the failures are in it');
    const notXml = xml.match(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u);
    assert.equal(notXml, null, `not an XML character: ${JSON.stringify(notXml?.[0])}`);
  });
});
