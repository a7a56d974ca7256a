/**
 * The one JUnit writer: the run's junit.xml and the findings reports of diff-spec and compare
 * count, escape and mark cases the same way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingsJunit, type FindingsView } from '../../compat/findings/report.ts';
import { failing } from '../../core/level.ts';
import { junitXml } from '../../core/junit.ts';

test('counts per suite and overall; failures, skips and detail; XML escaped', () => {
  const xml = junitXml({
    contracts: [
      { name: 'a <b> & "c"', classname: 'x', failure: { message: 'm\u0001', body: '<body>' } },
      { name: 'skipped', classname: 'x', skipped: 'no key' },
    ],
    load: [{ name: 'ok', classname: 'y' }],
  });
  assert.match(
    xml,
    /<testsuites name="support-ticketing-harness" tests="3" failures="1" skipped="1">/,
  );
  assert.match(xml, /<testsuite name="contracts" tests="2" failures="1" skipped="1" errors="0">/);
  assert.match(xml, /name="a &lt;b&gt; &amp; &quot;c&quot;"/);
  assert.match(xml, /<failure message="m">&lt;body&gt;<\/failure>/);
  assert.match(xml, /<skipped message="no key"\/>/);
  assert.match(xml, /<testcase name="ok" classname="y"\/>/);
});

test('findings: at or above fail-on fail, below carry their detail, none gives one empty case', () => {
  type F = { rule: string; message: string; level: 'ERR' | 'WARN' | 'INFO' };
  const view: FindingsView<F> = {
    tool: 't',
    subject: {},
    verdictKey: 'v',
    heading: '',
    subjectLine: '',
    said: { failing: () => '', below: () => '', none: '' },
    columns: [],
    row: () => [],
    caseName: (f) => f.rule,
    emptyCase: 'nothing',
    asFailure: (f) => ({
      check: `t.${f.rule}`,
      provenance: 'observed',
      rule: 'the rule',
      received: f.message,
      expected: 'before',
    }),
  };
  const fs: F[] = [
    { rule: 'r1', message: 'bad', level: 'ERR' },
    { rule: 'r2', message: 'meh', level: 'WARN' },
  ];
  assert.deepEqual(failing(fs, 'WARN').length, 2);
  const xml = findingsJunit(view, 'title', fs, 'ERR');
  assert.match(xml, /<testsuites name="t" tests="2" failures="1" skipped="0">/);
  // The body is the run's failure text: Received, what it was held to, the rule.
  assert.match(
    xml,
    /classname="t.ERR">\n\s+<failure type="ERR" message="bad">\[t.r1\] changed since the baseline\n {2}Received: {3}bad\n {2}Baseline: {3}before\n {2}Rule: {7}the rule<\/failure>/,
  );
  assert.match(xml, /classname="t.WARN">\n\s+<system-out>\[t.r2\] [^<]*Received: {3}meh/);
  assert.match(
    findingsJunit(view, 'title', [], 'ERR'),
    /<testcase name="nothing" classname="t"\/>/,
  );
});
