/**
 * Every contract and webhook fault of the catalogue is caught by the check it names: the suite
 * passes on the correct deployment (contracts run in `npm test` does that) and fails, naming the
 * check, with each fault on — and every webhook fault also on a deployment in dashboard mode (a
 * separate process without the admin surface), unless that mode cannot show it, said why.
 * Writes reports/latest/detection-matrix.{json,md}.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAULTS } from '../../server/faults.ts';
import { runDetectionMatrix } from '../../run/detection.ts';

test('detection matrix: each contract/webhook fault fails its named check, embedded and in dashboard mode', {
  timeout: 20 * 60_000,
}, async () => {
  const rows = await runDetectionMatrix(join(process.cwd(), 'reports', 'latest'));
  assert.ok(rows.length >= 25, `only ${rows.length} faults in the matrix`);
  const missed = rows
    .filter((r) => !r.caught)
    .map((r) => `${r.fault} → ${r.check} (${r.tests} tests ran)`);
  assert.deepEqual(missed, [], `faults not caught by their check:\n${missed.join('\n')}`);

  const webhookFaults = FAULTS.filter((f) => f.area === 'webhooks').map((f) => f.name);
  const cells = rows.filter((r) => r.dashboard).map((r) => r.fault);
  assert.deepEqual(cells.sort(), [...webhookFaults].sort(), 'a dashboard cell per webhook fault');
  const missedDashboard = rows
    .filter((r) => r.dashboard && 'caught' in r.dashboard && !r.dashboard.caught)
    .map((r) => `${r.fault} → ${r.check}`);
  assert.deepEqual(
    missedDashboard,
    [],
    `not caught in dashboard mode:\n${missedDashboard.join('\n')}`,
  );
  const notRun = rows.filter((r) => r.dashboard && 'notRun' in r.dashboard);
  for (const r of notRun)
    assert.ok((r.dashboard as { notRun: string }).notRun.length > 20, `${r.fault}: a reason`);
  assert.ok(
    notRun.length <= 1,
    `only sla.at_risk is out of dashboard reach: ${notRun.map((r) => r.fault)}`,
  );
});
