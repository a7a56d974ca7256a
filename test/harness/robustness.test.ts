/**
 * A dead, slow, TLS-broken, HTML- or garbage-answering, or 5xx-storming target is named by the
 * preflight as unusable (exit 2, no contract test run) and every report is written: no unhandled
 * exception, no hang past the bounded timeout.
 */
import { after, describe, test } from 'node:test';
import { assertVerdictAgainst, closeBrokenTargets } from './broken-targets.ts';

after(closeBrokenTargets);

describe('robustness against broken targets', () => {
  for (const kind of ['refused', 'hang', 'tls', 'html', 'garbage', '5xx']) {
    test(`${kind}: target unusable (exit 2) and a written report`, async () => {
      await assertVerdictAgainst(kind);
    });
  }
});
