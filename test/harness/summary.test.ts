import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestRow } from '../../contracts/collect.ts';
import { contractsArea } from '../../contracts/contracts-area.ts';
import { exitCodeOf } from '../../report/summary.ts';

const row = (
  title: string,
  status: TestRow['status'],
  error?: string,
  failedOn?: TestRow['failedOn'],
): TestRow => ({
  title,
  file: 'x.spec.ts',
  project: 'contracts',
  status,
  durationMs: 1,
  error,
  tags: [],
  ...(failedOn ? { failedOn } : {}),
});

test('a failed precondition is an assumption mismatch; a crash or timeout fails the gate; a named check is counted once', () => {
  const area = contractsArea(
    [],
    [
      row(
        'needs a ticket',
        'failed',
        'Error: the ticket was created\n\nexpect(received).not.toBe(expected)',
        'precondition',
      ),
      row('crashes', 'failed', "TypeError: Cannot read properties of undefined (reading 'id')"),
      row('hangs', 'timedOut', 'Test timeout of 30000ms exceeded.'),
      row(
        'check failed',
        'failed',
        '[ticket.created-status-open] documented rule broken',
        'checks',
      ),
      // Filed by annotation, never by error text: this one reads like a check failure but is not.
      row(
        'crash quoting a check',
        'failed',
        'TypeError: [ticket.created-status-open] was undefined',
      ),
      row('skipped', 'skipped'),
    ],
  );
  assert.deepEqual(
    area.assumptionMismatches.map((f) => f.check),
    ['harness.precondition'],
    'precondition reported, not fatal',
  );
  assert.deepEqual(
    area.documentedFailures.map((f) => f.check),
    ['harness.test-completed', 'harness.test-completed', 'harness.test-completed'],
    'crashes and timeout are fatal',
  );
  assert.equal(exitCodeOf({ contracts: area }, false), 1, 'the crash fails the gate');
  assert.equal(area.notRun.length, 1, 'the skipped test is listed as not run');
});
