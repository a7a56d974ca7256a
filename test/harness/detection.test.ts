/**
 * Every contract and webhook fault of the catalogue is caught by the check it names: the suite
 * passes on the correct deployment (contracts run in `npm test` does that) and fails, naming the
 * check, with each fault on. Writes reports/latest/detection-matrix.{json,md}.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDetectionMatrix } from '../../src/run/detection.ts';

test('detection matrix: each contract/webhook fault fails its named check', {
  timeout: 15 * 60_000,
}, async () => {
  const rows = await runDetectionMatrix(join(process.cwd(), 'reports', 'latest'));
  assert.ok(rows.length >= 25, `only ${rows.length} faults in the matrix`);
  const missed = rows
    .filter((r) => !r.caught)
    .map((r) => `${r.fault} → ${r.check} (${r.tests} tests ran)`);
  assert.deepEqual(missed, [], `faults not caught by their check:\n${missed.join('\n')}`);
});
