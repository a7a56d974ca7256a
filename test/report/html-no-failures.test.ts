/**
 * The HTML page's failures section when there is no documented failure to show: "No documented
 * rule is broken" (green) only when some check was judged; a run that judged nothing (an
 * unusable target, every area skipped) says so instead of reading as a pass.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderHtml } from '../../report/html.ts';
import type { Summary } from '../../report/summary.ts';
import { summaryFixture } from '../harness/summary-fixture.ts';

const summary = (judged: boolean): Summary =>
  summaryFixture({
    verdict: judged ? 'pass' : 'error',
    exitCode: judged ? 0 : 2,
    checks: judged
      ? [{ name: 'ticket.sla-present', provenance: 'documented', passed: 3, failed: 0 }]
      : [],
    tests: judged
      ? { passed: 3, failed: 0, skipped: 0, total: 3 }
      : { passed: 0, failed: 0, skipped: 0, total: 0 },
  });

const failuresSection = (html: string) =>
  /<section id="failures">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';

test('a run whose checks passed: no documented rule is broken, in green', () => {
  const section = failuresSection(renderHtml(summary(true)));
  assert.match(section, /<p class="pass">No documented rule is broken\.<\/p>/);
});

test('a run that judged nothing: no check ran, never a green "nothing broken"', () => {
  const section = failuresSection(renderHtml(summary(false)));
  assert.match(section, /<p class="not-run">No check ran, so no rule was judged\.<\/p>/);
  assert.doesNotMatch(section, /No documented rule is broken/);
});
