/**
 * The delivery check's result in the run report's one failure shape (core/checks/types.ts), filed
 * under the catalogue check each delivery broke, with that check's provenance and rule: a failing
 * run is one documented failure (webhook.signature-valid, webhook.payload-schema,
 * webhook.content-type …, or webhook.event-delivered when deliveries never came), and each
 * assumed rule some deliveries did not follow (webhook.event-shape for U13 extras,
 * webhook.signature-form for U15) is a warning. Repros: the delivery's transcript, then shell
 * lines replaying it signed with the endpoint's secret variable.
 */
import { checks } from '../../core/checks/index.ts';
import type { Failure } from '../../core/checks/types.ts';
import type { DeliveryCheckResult } from './types.ts';

/** The minimal case's reason and, when it is another failure, what the wrong deliveries show. */
function received(r: DeliveryCheckResult): string {
  const problems = r.failures[0]?.problems.join('; ');
  const deliveries = problems && `${r.failedDeliveries} deliveries failed, the first: ${problems}`;
  const reason = r.counterexample?.reason;
  if (!reason) return deliveries || `${r.failedDeliveries} deliveries failed`;
  return deliveries && !reason.includes(problems) ? `${reason}; ${deliveries}` : reason;
}

/** The registered check a failing run is filed under. */
function documentedCheck(r: DeliveryCheckResult): string {
  const first = r.failures[0]?.check;
  if (first) return first;
  if (r.counterexample?.check) return r.counterexample.check;
  return r.counterexample?.reason.startsWith('deliveries missing')
    ? 'webhook.event-delivered'
    : 'webhook.signature-valid';
}

const ruleOf = (name: string) => (checks.has(name) ? checks.get(name).rule : name);

const joined = (...parts: Array<string | undefined>) => parts.filter(Boolean).join('\n');

export function deliveryFailures(r: DeliveryCheckResult): Failure[] {
  const out: Failure[] = [];
  if (!r.passed) {
    const first = r.failures[0];
    const ce = r.counterexample;
    const repro = ce
      ? joined(ce.transcript, ce.repro ?? first?.repro)
      : joined(first?.transcript, first?.repro);
    const check = documentedCheck(r);
    out.push({
      check,
      provenance: 'documented',
      rule: ruleOf(check),
      received: received(r),
      expected:
        check === 'exchange.no-5xx'
          ? 'a 2xx for schema-valid ticket content, never a 5xx'
          : 'every delivery verifies over its exact bytes and carries the documented payload',
      ...(repro ? { repro } : {}),
    });
  }
  for (const m of r.assumptionMismatches ?? [])
    out.push({
      check: m.check,
      provenance: 'assumed',
      rule: ruleOf(m.check),
      received: `${m.deliveries} of ${r.deliveries} deliveries, the first (${m.endpoint}${m.event ? `, ${m.event}` : ''}): ${m.first}`,
      expected: 'every delivery follows the assumption',
      repro: joined(m.transcript, m.repro),
    });
  return out;
}
