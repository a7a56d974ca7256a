/** junit.xml of the whole run: one testsuite per area, one testcase per check / verdict / property. */
import { redact } from '../redact.ts';
import { xmlEscape } from './findings-junit.ts';

export interface JunitCase {
  name: string;
  classname: string;
  timeSec?: number;
  failure?: { message: string; body: string };
  skipped?: string;
}

const esc = xmlEscape;

export function junitXml(suites: Record<string, JunitCase[]>): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = Object.values(suites).flat();
  parts.push(
    `<testsuites name="support-ticketing-harness" tests="${all.length}" failures="${all.filter((c) => c.failure).length}" skipped="${all.filter((c) => c.skipped).length}">`,
  );
  for (const [name, cases] of Object.entries(suites)) {
    parts.push(
      `  <testsuite name="${esc(name)}" tests="${cases.length}" failures="${cases.filter((c) => c.failure).length}" skipped="${cases.filter((c) => c.skipped).length}">`,
    );
    for (const c of cases) {
      const head = `    <testcase name="${esc(c.name)}" classname="${esc(c.classname)}" time="${(c.timeSec ?? 0).toFixed(3)}"`;
      if (c.failure) {
        parts.push(
          `${head}>`,
          `      <failure message="${esc(c.failure.message)}">${esc(c.failure.body)}</failure>`,
          '    </testcase>',
        );
      } else if (c.skipped !== undefined) {
        parts.push(`${head}>`, `      <skipped message="${esc(c.skipped)}"/>`, '    </testcase>');
      } else parts.push(`${head}/>`);
    }
    parts.push('  </testsuite>');
  }
  parts.push('</testsuites>');
  return redact(`${parts.join('\n')}\n`);
}
