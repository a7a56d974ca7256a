/**
 * One fault, one failure: with each contract and webhook fault of the catalogue on, the whole
 * suite runs and the check the fault names fails — and no other check, unless the catalogue lists
 * it for that fault with why (`alsoFails`); a listed one that no longer fails is stale. The suite
 * passes on the correct deployment (contracts run in `npm test` does that). Every webhook fault
 * also runs on a deployment in dashboard mode (a separate process without the admin surface),
 * unless that mode cannot show it, said why. Writes reports/latest/detection-matrix.{json,md}.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAULTS } from '../../server/faults.ts';
import { besides, runDetectionMatrix } from '../../run/detection.ts';
import { detectionMatrixTimeoutMs } from '../../run/detection-limits.ts';

test('every alsoFails entry of the catalogue says why, and names another check', () => {
  for (const f of FAULTS)
    for (const a of f.alsoFails ?? []) {
      assert.notEqual(a.check, f.check, `${f.name}: its own check is not "also"`);
      assert.ok(a.why.length > 30, `${f.name} → ${a.check}: a reason, not a label`);
    }
});

test('detection matrix: each contract/webhook fault fails its named check and nothing unlisted, embedded and in dashboard mode', {
  // Only a backstop: the matrix's own limits are the hang guard per fault (run/detection-limits.ts).
  timeout: detectionMatrixTimeoutMs() + 10 * 60_000,
}, async () => {
  const rows = await runDetectionMatrix(join(process.cwd(), 'reports', 'latest'));
  assert.ok(rows.length >= 25, `only ${rows.length} faults in the matrix`);
  const missed = rows
    .filter((r) => !r.caught)
    .map(
      (r) => `${r.fault} → ${r.check} (${r.tests} tests ran${r.stopped ? `; ${r.stopped}` : ''})`,
    );
  assert.deepEqual(missed, [], `faults not caught by their check:\n${missed.join('\n')}`);
  const notAlone = rows
    .filter((r) => besides(r))
    .map((r) => `${r.fault} → ${besides(r)}: ${r.collateral.map((c) => c.received).join(' | ')}`);
  assert.deepEqual(
    notAlone,
    [],
    `faults that fail other checks the catalogue does not list for them (fix the check, or list it in alsoFails with why):\n${notAlone.join('\n')}`,
  );

  const webhookFaults = FAULTS.filter((f) => f.area === 'webhooks').map((f) => f.name);
  const cells = rows.filter((r) => r.dashboard).map((r) => r.fault);
  assert.deepEqual(cells.sort(), [...webhookFaults].sort(), 'a dashboard cell per webhook fault');
  const judged = rows.flatMap((r) =>
    r.dashboard && !('notRun' in r.dashboard)
      ? [{ fault: r.fault, check: r.check, cell: r.dashboard }]
      : [],
  );
  const missedDashboard = judged
    .filter((j) => !j.cell.caught)
    .map((j) => `${j.fault} → ${j.check}`);
  assert.deepEqual(
    missedDashboard,
    [],
    `not caught in dashboard mode:\n${missedDashboard.join('\n')}`,
  );
  const notAloneDashboard = judged
    .filter((j) => besides(j.cell))
    .map((j) => `${j.fault} → ${besides(j.cell)}`);
  assert.deepEqual(
    notAloneDashboard,
    [],
    `other checks failing in dashboard mode:\n${notAloneDashboard.join('\n')}`,
  );
  const notRun = rows.filter((r) => r.dashboard && 'notRun' in r.dashboard);
  for (const r of notRun)
    assert.ok((r.dashboard as { notRun: string }).notRun.length > 20, `${r.fault}: a reason`);
  // Out of a dashboard's reach: the clock sla.at_risk needs (admin only) and an HTTPS receiver
  // (the public webhook URL the user gives is plain HTTP here).
  assert.deepEqual(
    notRun.map((r) => r.fault).sort(),
    ['https-deliveries-lost', 'sla-at-risk-never'],
    'only sla.at_risk and HTTPS delivery are out of dashboard reach',
  );
});
