/**
 * The one JUnit XML writer: the run's junit.xml (one testsuite per area, one testcase per check,
 * verdict or property) and the findings reports of diff-spec and compare (compat/findings).
 */
import { redact } from './redact.ts';

export interface JunitCase {
  name: string;
  classname: string;
  failure?: { message: string; body: string; type?: string };
  /** The case could not run (an unusable target, an area cut short): JUnit's `<error>`. */
  error?: { message: string; body: string };
  skipped?: string;
  /** Detail of a case that passed (a finding below the fail-on level). */
  systemOut?: string;
}

// Characters that are not XML 1.0 are dropped (a lone surrogate becomes U+FFFD in UTF-8).
export function xmlEscape(s: string): string {
  return (
    s
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Characters XML 1.0 does not allow, which a target's text may hold (NUL, controls).
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
  );
}

const esc = xmlEscape;

/** The counts of a suite; the root states its errors only when there are any. */
const counts = (cases: readonly JunitCase[], root = false) => {
  const errors = cases.filter((c) => c.error && !c.failure).length;
  return `tests="${cases.length}" failures="${cases.filter((c) => c.failure).length}" skipped="${cases.filter((c) => c.skipped !== undefined).length}"${root && errors === 0 ? '' : ` errors="${errors}"`}`;
};

export function junitXml(
  suites: Record<string, JunitCase[]>,
  name = 'support-ticketing-harness',
): string {
  const all = Object.values(suites).flat();
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${esc(name)}" ${counts(all, true)}>`,
  ];
  for (const [suite, cases] of Object.entries(suites)) {
    parts.push(`  <testsuite name="${esc(suite)}" ${counts(cases)}>`);
    for (const c of cases) {
      const head = `    <testcase name="${esc(c.name)}" classname="${esc(c.classname)}"`;
      if (c.failure) {
        const type = c.failure.type ? ` type="${esc(c.failure.type)}"` : '';
        parts.push(
          `${head}>`,
          `      <failure${type} message="${esc(c.failure.message)}">${esc(c.failure.body)}</failure>`,
          '    </testcase>',
        );
      } else if (c.error) {
        parts.push(
          `${head}>`,
          `      <error message="${esc(c.error.message)}">${esc(c.error.body)}</error>`,
          '    </testcase>',
        );
      } else if (c.skipped !== undefined) {
        parts.push(`${head}>`, `      <skipped message="${esc(c.skipped)}"/>`, '    </testcase>');
      } else if (c.systemOut !== undefined) {
        parts.push(
          `${head}>`,
          `      <system-out>${esc(c.systemOut)}</system-out>`,
          '    </testcase>',
        );
      } else parts.push(`${head}/>`);
    }
    parts.push('  </testsuite>');
  }
  parts.push('</testsuites>');
  return redact(`${parts.join('\n')}\n`);
}
