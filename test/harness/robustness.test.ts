/**
 * A dead, slow, TLS-broken, HTML- or garbage-answering, or 5xx-storming target yields a verdict
 * and a written report: no unhandled exception, no hang past the bounded timeout.
 */
import { after, describe, test } from 'node:test';
import { assertVerdictAgainst, closeBrokenTargets } from './broken-targets.ts';

after(closeBrokenTargets);

describe('robustness against broken targets', () => {
  for (const kind of ['refused', 'hang', 'tls', 'html', 'garbage', '5xx']) {
    test(`${kind}: a failing verdict and a written report`, async () => {
      await assertVerdictAgainst(kind);
    });
  }
});
