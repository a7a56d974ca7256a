/**
 * Odd answers from a target — redirects, a 200 with an empty body, an enormous body, a slowloris
 * body, invalid UTF-8 — make it unusable (exit 2) with every report written, in bounded time.
 */
import { after, describe, test } from 'node:test';
import { assertVerdictAgainst, closeBrokenTargets } from './broken-targets.ts';

after(closeBrokenTargets);

describe('robustness against odd answers', () => {
  for (const kind of ['redirect', 'empty-200', 'enormous', 'slowloris', 'bad-utf8']) {
    test(`${kind}: target unusable (exit 2) and a written report`, async () => {
      await assertVerdictAgainst(kind);
    });
  }
});
