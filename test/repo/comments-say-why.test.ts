/**
 * Product comments say why, never when: none cites an issue (`issue 25`, `#25`) or a mutation
 * triage key (`server/guard.ts:42:7`). What happened, and where it was asked for, belongs in the
 * commit message; a reader of the code needs the reason, which stays true after the issue closes.
 * Product code: the tracked .ts and .mjs outside test/, the Playwright specs included.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * An issue cited by number (`issue 25`, `(#25)`, `see #25`; a bare `#2` is a count, as in a
 * mutant key), or a `file:line:col` key of the mutation triage.
 */
const HISTORY =
  /\b[Ii]ssues? #?\d+\b|(?:\(|\b(?:see|in|per|fixes|closes) )#\d+\b|\.(?:ts|mjs):\d+:\d+\b/;

/**
 * Files rewritten on another branch, comments and all; each leaves this list when that rewrite
 * lands.
 */
const REWRITTEN_ELSEWHERE = new Set([
  'fuzz/api-input/api-input.ts',
  'run/cost-estimate.ts',
  'run/run-all.ts',
]);

/** The comment text of each line of `source`: `//` comments and `/* … *\/` blocks, by line. */
export function commentLines(source: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let inBlock = false;
  source.split('\n').forEach((raw, i) => {
    const t = raw.trim();
    if (inBlock || t.startsWith('/*')) {
      out.push({ line: i + 1, text: t });
      inBlock = !t.includes('*/');
      return;
    }
    if (t.startsWith('//')) out.push({ line: i + 1, text: t });
    else {
      // A trailing comment after code: `//` after white space (never `http://` in a string).
      const at = raw.search(/\s\/\/\s/);
      if (at >= 0) out.push({ line: i + 1, text: raw.slice(at) });
    }
  });
  return out;
}

const productFiles = () =>
  execFileSync('git', ['ls-files', '-z', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !f.startsWith('test/') && !REWRITTEN_ELSEWHERE.has(f));

test('the pattern finds history in comments, and not code that looks like it', () => {
  const found = (src: string) => commentLines(src).filter((c) => HISTORY.test(c.text)).length;
  assert.equal(found('// fits the burst (issue 25)\n'), 1);
  assert.equal(found('/**\n * as Issue #7 asked\n */\n'), 1);
  assert.equal(found('x(); // see #31\n'), 1);
  assert.equal(found('// a survivor at server/guard.ts:42:7\n'), 1);
  assert.equal(found("const s = 'issue 25'; // a string, not a comment\n"), 0);
  assert.equal(found('const c = "#444"; // a colour\n'), 0);
  assert.equal(found('// a mutant key: … ConditionalExpression: !d.allowed → true #2\n'), 0);
  assert.equal(found("/** `auth.spec.ts:59 › title`: Playwright's location */\n"), 0);
  assert.equal(found('const url = `http://host/issue 2`;\n'), 0);
});

test('no product comment cites an issue number or a triage key', () => {
  const hits: string[] = [];
  for (const f of productFiles())
    for (const c of commentLines(readFileSync(join(ROOT, f), 'utf8')))
      if (HISTORY.test(c.text)) hits.push(`${f}:${c.line}: ${c.text}`);
  assert.deepEqual(hits, [], 'say why, not when: the history goes in the commit message');
});
