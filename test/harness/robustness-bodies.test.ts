/**
 * Odd answers from a target — redirects, a 200 with an empty body, an enormous body, a slowloris
 * body, invalid UTF-8 — still yield a verdict and a written report, in bounded time.
 */
import { after, describe, test } from 'node:test';
import { assertVerdictAgainst, closeBrokenTargets } from './broken-targets.ts';

after(closeBrokenTargets);

describe('robustness against odd answers', () => {
  for (const kind of ['redirect', 'empty-200', 'enormous', 'slowloris', 'bad-utf8']) {
    test(`${kind}: a failing verdict and a written report`, async () => {
      await assertVerdictAgainst(kind);
    });
  }
});
