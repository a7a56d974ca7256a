/**
 * The request count of a gate run: the contract workers' statistics summed from raw files, the
 * fuzz area's, the load area's plain count, one line and the summary.json shape.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  contractRequestStats,
  requestCount,
  requestLine,
  statsSince,
} from '../../run/request-count.ts';

test('contracts (every worker), fuzz and load are counted per area and in total', () => {
  const out = mkdtempSync(join(tmpdir(), 'harness-requests-'));
  mkdirSync(join(out, 'raw'));
  const row = (sent: number, rateLimited: number, waitedMs: number) =>
    `${JSON.stringify({ sent, rateLimited, retried: rateLimited, waitedMs, inconclusive: 0 })}\n`;
  writeFileSync(join(out, 'raw', 'requests-101.jsonl'), row(150, 1, 1200));
  writeFileSync(join(out, 'raw', 'requests-102.jsonl'), row(139, 0, 300));
  writeFileSync(join(out, 'raw', 'exchanges-0.jsonl'), '{"not":"counted"}\n');
  const contracts = contractRequestStats(out);
  assert.equal(contracts.sent, 289);
  const before = { sent: 10, rateLimited: 0, retried: 0, waitedMs: 0, inconclusive: 0 };
  const after = { sent: 300, rateLimited: 2, retried: 1, waitedMs: 500, inconclusive: 1 };
  const fuzz = statsSince(after, before);
  const c = requestCount({ contracts, fuzz }, 4000);
  assert.deepEqual(c, {
    total: 289 + 290 + 4000,
    byArea: { contracts: 289, fuzz: 290, load: 4000 },
    rateLimited: 3,
    waitedS: 2,
    inconclusive: 1,
  });
  assert.equal(
    requestLine(c),
    'requests sent: contracts 289 · fuzz 290 · load 4000 · total 4579 (3× 429 received, waited 2.0 s for the rate limit, 1 given up (inconclusive))',
  );
  // An area that did not run is absent, not zero; no raw files count as none sent.
  const skipped = requestCount({ contracts: contractRequestStats(join(out, 'nowhere')) });
  assert.deepEqual(skipped.byArea, { contracts: 0 });
});
