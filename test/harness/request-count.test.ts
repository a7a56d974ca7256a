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
  contractKeySent,
  contractRequestStats,
  contractWaits,
  loadCount,
  requestCount,
  requestLine,
  statsSince,
  unionMs,
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
  const c = requestCount({ contracts, fuzz }, { sent: 4000, rateLimited: 1987 });
  assert.deepEqual(c, {
    total: 289 + 290 + 4000,
    byArea: { contracts: 289, fuzz: 290, load: 4000 },
    rateLimited: 3,
    loadRateLimited: 1987,
    waitedS: 2,
    inconclusive: 1,
  });
  // The load area's 429s are counted too, apart from the paced areas' (a run with ~2 000 429s
  // must not say "0× 429 received").
  assert.equal(
    requestLine(c),
    'requests sent: contracts 289 · fuzz 290 · load 4000 · total 4579 (1987× 429 provoked by the load area on its plan keys, 3× 429 received by contracts and fuzz, waited 2.0 s for the rate limit, 1 given up (inconclusive))',
  );
  const noLoad = requestCount({ contracts, fuzz });
  assert.equal(noLoad.loadRateLimited, undefined);
  assert.match(requestLine(noLoad), /\(3× 429 received, waited 2\.0 s/);
  // An area that did not run is absent, not zero; no raw files count as none sent.
  const skipped = requestCount({ contracts: contractRequestStats(join(out, 'nowhere')) });
  assert.deepEqual(skipped.byArea, { contracts: 0 });
});

test('the load area counts every 429 its plan runs received, per phase', () => {
  const result = (sent: number, rejected: number[]) =>
    ({
      requests: { sent },
      phases: rejected.map((r) => ({ rejected: r })),
    }) as unknown as Parameters<typeof loadCount>[0][number];
  assert.deepEqual(loadCount([result(2000, [0, 180, 700]), result(5000, [0, 900, 200, 4])]), {
    sent: 7000,
    rateLimited: 180 + 700 + 900 + 200 + 4,
  });
  assert.deepEqual(loadCount([]), { sent: 0, rateLimited: 0 });
});

test('the time waited is wall clock: waits of processes waiting at the same time count once', () => {
  assert.equal(unionMs([]), 0);
  // Two workers waiting over the same second, a third later, one inside another, one empty.
  assert.equal(
    unionMs([
      [1000, 2000],
      [1500, 2500],
      [5000, 5400],
      [1100, 1200],
      [7000, 7000],
    ]),
    1500 + 400,
  );
  const out = mkdtempSync(join(tmpdir(), 'harness-waits-'));
  mkdirSync(join(out, 'raw'));
  // Each worker's row: its requests with the run's key and when it waited.
  writeFileSync(
    join(out, 'raw', 'costs-201.jsonl'),
    `${JSON.stringify({ test: 't', sent: 3, key: 3 })}\n${JSON.stringify({ worker: true, sent: 90, key: 80, waits: [[0, 60_000]] })}\n`,
  );
  writeFileSync(
    join(out, 'raw', 'costs-202.jsonl'),
    `${JSON.stringify({ worker: true, sent: 70, key: 60, waits: [[30_000, 90_000]] })}\n`,
  );
  assert.equal(contractKeySent(out), 140);
  const stats = { sent: 160, rateLimited: 0, retried: 0, waitedMs: 120_000, inconclusive: 0 };
  const c = requestCount({ contracts: stats }, undefined, contractWaits(out));
  // 120 s of waiting added up over both workers, 90 s of the run's clock.
  assert.equal(c.waitedS, 90);
  assert.equal(c.waitedByProcessesS, 120);
  c.refill = { keySent: 140, limitPerMin: 120, availableNow: 20, neededS: 60 };
  assert.match(
    requestLine(c),
    /waited 90\.0 s for the rate limit, wall clock, against 60\.0 s the refill needed at 120\/min for the run's 140 requests with the key beyond the 20 Remaining above the reserve/,
  );
});
