/**
 * The run's delivery sweep (contracts/delivery-sweep.ts) over the raw files the workers and the
 * shared receiver write: only this run's rows, one evaluation per check and project, the first
 * offending delivery as evidence with a repro naming its endpoint's secret variable — and no
 * signature value ever written to the raw files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { appendJsonl } from '../../core/output-dir.ts';
import { signatureHeaders } from '../../core/signature/sign.ts';
import type { CapturedDelivery } from '../../core/webhooks/capture-receiver.ts';
import { type ActionRow, deliveryRow } from '../../contracts/delivery-rows.ts';
import { SWEEP_CHECKS, SWEEP_TITLE, sweepDeliveries } from '../../contracts/delivery-sweep.ts';

const SECRET = 'whsec_sweep_unit_secret';
const REQUESTER = { email: 'zoe.angstrom@example.com', name: 'Zoë Ångström 𠮷田' };

function created(run: string, id: string): ActionRow {
  return {
    run,
    at: 1,
    ticketId: id,
    workspace: 'own',
    kind: 'create',
    operation: 'POST /v1/tickets',
    view: { id, subject: 'Printer on fire', status: 'open', priority: 'high' },
    requester: REQUESTER,
    project: 'contracts',
  };
}

function delivered(id: string, customer: unknown, n: number): CapturedDelivery {
  const raw = Buffer.from(
    JSON.stringify({
      event: 'ticket.created',
      ticket: {
        id,
        subject: 'Printer on fire',
        status: 'open',
        priority: 'high',
        url: 'https://d/t',
      },
      customer,
    }),
  );
  return {
    receivedAt: n,
    method: 'POST',
    path: '/hook/all',
    headers: {
      'content-type': 'application/json',
      'x-service-delivery': `wd_${n}`,
      ...Object.fromEntries(
        Object.entries(signatureHeaders('both', SECRET, raw)).map(([k, v]) => [k.toLowerCase(), v]),
      ),
    },
    raw,
    answered: 204,
  };
}

test('the sweep judges this run’s rows only, once per check, with the first offender as evidence', () => {
  const raw = join(mkdtempSync(join(tmpdir(), 'harness-sweep-')), 'raw');
  const row = (d: CapturedDelivery, run: string) =>
    deliveryRow(d, {
      run,
      receiverUrl: 'https://hooks.example.com',
      secretEnv: 'HOOK_ALL_SECRET',
    });
  const agent = { name: 'Support Agent', email: 'agent@desk.example' };
  appendJsonl(join(raw, 'actions-1.jsonl'), [created('r1', 'tkt_1'), created('r1', 'tkt_2')]);
  appendJsonl(join(raw, 'deliveries-shared.jsonl'), [
    row(delivered('tkt_1', agent, 1), 'r1'),
    row(delivered('tkt_2', agent, 2), 'r1'),
    // A run before this one left its rows (a raw directory nobody emptied): not judged.
    row(delivered('tkt_0', agent, 0), 'r0'),
  ]);
  const written = readFileSync(join(raw, 'deliveries-shared.jsonl'), 'utf8');
  assert.doesNotMatch(written, /[0-9a-f]{64}/, 'no signature value in the raw file');
  assert.match(written, /"x-service-signature":"\(not kept\)"/, 'the header form is kept');

  const failures = sweepDeliveries(raw, 'r1');
  assert.deepEqual(
    failures.map((f) => f.check),
    ['webhook.customer-is-requester'],
    'unknown tkt_0 of the other run is not reported',
  );
  const [f] = failures;
  assert.match(
    f!.received,
    /^ticket\.created about tkt_1 at \/hook\/all: customer \{"name":"Support Agent".*\(and 1 more delivery\)$/,
  );
  assert.match(f!.repro!, /signed with \$HOOK_ALL_SECRET/);
  // The run's capture receiver is gone with the run: the repro posts to $WEBHOOK_RECEIVER_URL
  // and names the URL the delivery reached (report/replay.ts).
  assert.match(f!.repro!, /--data-binary @delivery\.body "\$WEBHOOK_RECEIVER_URL"$/);
  assert.match(
    f!.repro!,
    /it reached https:\/\/hooks\.example\.com\/hook\/all, the run's capture receiver/,
  );
  assert.ok(!f!.repro!.includes(SECRET));

  const results = readFileSync(join(raw, 'checks-deliveries.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    results.map((r) => [r.check, r.passed, r.project, r.test]),
    SWEEP_CHECKS.map((c) => [c, c !== 'webhook.customer-is-requester', 'contracts', SWEEP_TITLE]),
  );
  assert.deepEqual(sweepDeliveries(raw, 'r9'), [], 'a run that captured nothing: nothing judged');
});
