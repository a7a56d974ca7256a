/**
 * Every webhook delivery of the run judged against what it is about, once the suite has ended.
 *
 * Why at the end, over the whole run: tests run in parallel and a delivery about one test's ticket
 * may arrive while another test waits, at an endpoint every test shares (a dashboard's), or after
 * its own test is over (the clean-up's closes). So every worker records the API actions it
 * performed (`actions-*.jsonl`, core/webhooks/delivery-ledger.ts), every receiver what it captured
 * (`deliveries-*.jsonl`: the workers' own receivers when they stop, the run's shared receiver in
 * the global teardown, after the workers' clean-up), and the global teardown matches the two here.
 * The one test that needs a delivery NOT to happen (another workspace's tickets at this
 * workspace's endpoints, webhooks.spec.ts) makes its writes, waits for a later delivery of its own
 * and judges at once; this sweep also judges whatever arrived later, anywhere.
 *
 * Results are check results like any test's (`checks-deliveries.jsonl`, one Playwright project
 * each), so summary.json, the detection matrix and --strict treat them alike: one evaluation per
 * check (and project), failing on the first delivery that breaks the rule, with its repro.
 */
import { join } from 'node:path';
import { checks } from '../core/checks/index.ts';
import type { Failure } from '../core/checks/types.ts';
import type { ProbeRow } from '../core/snapshot/types.ts';
import { Verdict } from '../core/checks/verdict.ts';
import { appendJsonl } from '../core/output-dir.ts';
import type { CapturedDelivery } from '../core/webhooks/capture-receiver.ts';
import {
  type ArrivedDelivery,
  type DeliveryMatch,
  matchDeliveries,
} from '../core/webhooks/delivery-ledger.ts';
import { readJsonl } from './collect.ts';
import type { ActionRow, DeliveryRow } from './delivery-rows.ts';
import { deliveryExchange } from './helpers.ts';

/** The test title the sweep's results are filed under. */
export const SWEEP_TITLE =
  'webhook deliveries of the run › each matched to the API action that caused it';

/** The checks the sweep applies to every endpoint's deliveries. */
export const SWEEP_CHECKS = [
  'webhook.workspace-isolated',
  'webhook.delivered-once',
  'webhook.about-run-ticket',
  'webhook.event-caused',
  'webhook.ticket-matches-api',
  'webhook.customer-is-requester',
] as const;

function arrived(row: DeliveryRow): ArrivedDelivery & { row: DeliveryRow } {
  const delivery: CapturedDelivery = {
    receivedAt: row.receivedAt,
    method: row.method,
    path: row.path,
    headers: row.headers,
    raw: Buffer.from(row.raw, 'base64'),
    answered: row.answered,
  };
  return {
    endpoint: row.endpoint,
    delivery,
    row,
    ...(row.project ? { project: row.project } : {}),
  };
}

/**
 * Judges every delivery run `run` recorded in `rawDir` against every action it recorded there;
 * writes the results beside the tests' and returns the failures.
 */
export function sweepDeliveries(rawDir: string, run: string): Failure[] {
  const actions = readJsonl<ActionRow>(rawDir, 'actions-').filter((a) => a.run === run);
  const rows = readJsonl<DeliveryRow>(rawDir, 'deliveries-')
    .filter((d) => d.run === run)
    .map(arrived);
  if (rows.length === 0) return [];
  const rowOf = new Map(rows.map((r) => [r.delivery, r.row]));
  const matches = matchDeliveries(actions, rows);
  // One evaluation per project and check: a deployment that breaks a rule on every delivery
  // reads once, with the first delivery that shows it and how many did, not hundreds of times.
  // A run of one project (every run but the detection matrix's): what no worker recorded (the
  // global setup's retry probe, the shared receiver's strays) belongs to it too.
  const projects = new Set(matches.flatMap((m) => (m.project ? [m.project] : [])));
  const only = projects.size === 1 ? [...projects][0] : undefined;
  const groups = new Map<string, DeliveryMatch[]>();
  for (const m of matches) {
    const k = m.project ?? only ?? '';
    const list = groups.get(k) ?? [];
    list.push(m);
    groups.set(k, list);
  }
  const failures: Failure[] = [];
  for (const [project, group] of groups) {
    const v = new Verdict(checks, SWEEP_TITLE, undefined, project || undefined);
    for (const name of SWEEP_CHECKS) {
      const offender = group.find((m) => checks.get(name).run(undefinedExchange, { matches: [m] }));
      const row = offender ? rowOf.get(offender.delivery) : undefined;
      const ex =
        offender && row ? deliveryExchange(offender.delivery, row.receiverUrl, row) : undefined;
      v.check(name, ex, { matches: group });
    }
    appendJsonl(join(rawDir, 'checks-deliveries.jsonl'), v.results);
    failures.push(...v.failures());
  }
  // Which kinds of action fired each documented event (observed, U12): what a deployment that
  // announces a note as a reply, say, does differently. One project's run only: the detection
  // matrix's projects are faults, not the target's behaviour.
  if (groups.size === 1) appendJsonl(join(rawDir, 'probes-sweep.jsonl'), firedBy(matches));
  return failures;
}

/** One probe per documented event delivered: the kinds of the actions it was matched to. */
function firedBy(matches: readonly DeliveryMatch[]): ProbeRow[] {
  const kinds = new Map<string, Set<string>>();
  for (const m of matches) {
    const a = m.cause?.action;
    if (!a || m.cause?.leansOn || !m.event) continue;
    kinds.set(m.event, (kinds.get(m.event) ?? new Set()).add(a.kind));
  }
  return [...kinds].map(([event, ks]) => ({
    gap: 'U12',
    id: `fired-by:${event}`,
    label: `the kinds of action ${event} was delivered for`,
    value: [...ks].sort(),
    test: SWEEP_TITLE,
  }));
}

/** The checks of this file read only their arguments. */
const undefinedExchange = {
  request: { method: '-', url: 'about:blank', headers: {} },
  durationMs: 0,
};
