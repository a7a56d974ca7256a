/**
 * JUnit XML for a list of leveled findings (diff-spec, compare): one test case per finding;
 * those at or above the fail-on level are failures, so CI shows them red, the others carry their
 * detail as system-out. One writer, so both reports read the same in every CI viewer.
 */
import { redact } from '../redact.ts';

export function xmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

export interface FindingCase {
  level: string;
  name: string;
  message: string;
  /** Lines of detail (what changed, where, provenance). */
  detail: string[];
  failing: boolean;
}

export function findingsJunit(
  tool: string,
  title: string,
  cases: readonly FindingCase[],
  emptyName: string,
): string {
  const bad = cases.filter((c) => c.failing).length;
  const rows = cases.map((c) => {
    const detail = xmlEscape(c.detail.join('\n'));
    const body = c.failing
      ? `<failure type="${c.level}" message="${xmlEscape(c.message)}">${detail}</failure>`
      : `<system-out>${detail}</system-out>`;
    return `    <testcase classname="${tool}.${c.level}" name="${xmlEscape(c.name)}">${body}</testcase>`;
  });
  if (rows.length === 0)
    rows.push(`    <testcase classname="${tool}" name="${xmlEscape(emptyName)}"/>`);
  return redact(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${tool}" tests="${rows.length}" failures="${bad}">`,
      `  <testsuite name="${xmlEscape(title)}" tests="${rows.length}" failures="${bad}" errors="0" skipped="0">`,
      ...rows,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  );
}
