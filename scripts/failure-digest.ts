/**
 * What failed, printed again at the end of `npm test`, just above the closing counts line.
 *
 * CI keeps only the tail of a long log: a failure deep in 1 600 passing tests scrolls out of it,
 * and the stop is refused with nothing to go on but "1 failed". So the closing block repeats each
 * failed test's name, where it is, and its assertion message (TAP's `error:` field, which the
 * tests fill with the run's diagnostics) — read from the machine formats the runners already
 * write (node:test's TAP, Playwright's JSON), never scraped from the console.
 */

import type { TestRow } from '../contracts/collect.ts';

/** One failed test: its name, where it is, and the message it failed with. */
export interface Failure {
  name: string;
  location?: string;
  message: string;
}

const MAX_MESSAGE = 4000;

function clip(s: string): string {
  const t = s.trimEnd();
  return t.length <= MAX_MESSAGE
    ? t
    : `${t.slice(0, MAX_MESSAGE)}\n… (${t.length - MAX_MESSAGE} more characters)`;
}

/** A YAML scalar of TAP's diagnostic block: quoted, or a `|-` block indented below its key. */
function yamlValue(lines: string[], i: number, keyIndent: number): string {
  const rest = lines[i]!.slice(lines[i]!.indexOf(':') + 1).trim();
  if (rest === '|-' || rest === '|' || rest === '>-') {
    const out: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      const indent = l.length - l.trimStart().length;
      if (l.trim() !== '' && indent <= keyIndent) break;
      out.push(l.slice(keyIndent + 2));
    }
    return out.join('\n');
  }
  if (rest.startsWith("'") && rest.endsWith("'")) return rest.slice(1, -1).replaceAll("''", "'");
  if (rest.startsWith('"') && rest.endsWith('"')) {
    try {
      return JSON.parse(rest) as string;
    } catch {
      return rest.slice(1, -1);
    }
  }
  return rest;
}

/**
 * The failed tests of a node:test TAP stream. A parent whose only fault is a failed subtest
 * (`subtestsFailed`) is left out: its failing subtest is listed with the real message.
 */
export function tapFailures(tap: string): Failure[] {
  const lines = tap.split('\n');
  const out: Failure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i]!.match(/^(\s*)not ok \d+ - (.*)$/);
    if (!m) continue;
    const indent = m[1]!.length;
    const fields: Record<string, string> = {};
    if (lines[i + 1]?.trim() === '---') {
      for (let j = i + 2; j < lines.length; j++) {
        const l = lines[j]!;
        if (l.trim() === '...') break;
        const key = l.match(/^(\s*)([A-Za-z_]+):/);
        if (key && key[1]!.length === indent + 2) fields[key[2]!] = yamlValue(lines, j, indent + 2);
      }
    }
    if (fields.failureType === 'subtestsFailed') continue;
    out.push({
      name: m[2]!.replace(/ # (SKIP|TODO).*$/, ''),
      location: fields.location,
      message: fields.error ?? fields.failureType ?? '(no message)',
    });
  }
  return out;
}

/**
 * The failed tests of Playwright's JSON report, read as the harness reads it
 * (contracts/collect.ts): a test whose last try failed, timed out or was interrupted — a flaky one
 * passed in the end and is not listed.
 */
export function playwrightFailures(rows: TestRow[]): Failure[] {
  return rows
    .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
    .map((t) => ({
      name: t.title,
      location: t.line === undefined ? t.file : `${t.file}:${t.line}`,
      // Playwright's messages carry terminal colours; a log file wants plain text.
      message: (t.error ?? t.status).replace(/\u001b\[[0-9;]*m/g, ''),
    }));
}

/** The closing block: each failure, named, located and explained. Empty when nothing failed. */
export function formatFailures(failures: Failure[]): string {
  if (failures.length === 0) return '';
  const blocks = failures.map(
    (f, i) =>
      `${i + 1}. ${f.name}${f.location ? `\n   at ${f.location}` : ''}\n${clip(f.message)
        .split('\n')
        .map((l) => `   | ${l}`)
        .join('\n')}`,
  );
  return `\n=== what failed (${failures.length}), repeated here so a log's tail shows it\n${blocks.join('\n')}\n`;
}
