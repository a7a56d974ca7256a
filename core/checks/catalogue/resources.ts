/** Checks of the resources around tickets: contacts, macros, rules and reports (U10). */
import { listRows } from '../../http/list-page.ts';
import { show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import { body, statusIn } from './answer.ts';

export const resourceStatus = statusIn(
  'resources.status-code',
  'U10: contacts, macros, rules and reports answer with the statuses the spec gives them.',
);

export const contactEchoed = defineCheck({
  name: 'resources.contact-echoed',
  provenance: 'assumed',
  rule: 'U10: a contact is stored and returned with the email and name sent.',
  kind: 'scenario',
  run(ex, a: { sent: { email?: string; name?: string } }) {
    const c = body(ex);
    const off = Object.entries(a.sent).filter(([k, v]) => c[k] !== v);
    return off.length === 0
      ? undefined
      : { received: `contact ${show(c, 160)}`, expected: `contact with ${show(a.sent)}` };
  },
});

/** args: the macro's actions; ex: the apply answer (the ticket after the macro). */
export const macroApplied = defineCheck({
  name: 'resources.macro-applied',
  provenance: 'assumed',
  rule: 'U10: applying a macro performs its actions on the ticket and returns the ticket.',
  kind: 'scenario',
  run(
    ex,
    a: {
      actions: { status?: string; priority?: string; tags_add?: string[] };
    },
  ) {
    const t = body(ex);
    const off: string[] = [];
    if (ex.response?.status !== 200) off.push(`status code ${ex.response?.status ?? ex.error}`);
    if (a.actions.status && t.status !== a.actions.status) off.push(`status ${show(t.status)}`);
    if (a.actions.priority && t.priority !== a.actions.priority)
      off.push(`priority ${show(t.priority)}`);
    for (const tag of a.actions.tags_add ?? [])
      if (!(Array.isArray(t.tags) && t.tags.includes(tag))) off.push(`tag ${show(tag)} missing`);
    return off.length === 0
      ? undefined
      : {
          received: off.join(', '),
          expected: `200 with the macro's actions ${show(a.actions)} applied`,
        };
  },
});

/** args: the tag the rule adds; ex: the creation of a ticket matching the rule's condition. */
export const ruleApplied = defineCheck({
  name: 'resources.rule-applied',
  provenance: 'assumed',
  rule: 'U10: an enabled rule acts on the tickets matching its event and conditions.',
  kind: 'scenario',
  run(ex, a: { tag: string }) {
    const tags = body(ex).tags;
    return Array.isArray(tags) && tags.includes(a.tag)
      ? undefined
      : { received: `tags ${show(tags)}`, expected: `the rule's tag ${show(a.tag)} added` };
  },
});

/** args: how many tickets this test created before asking (a lower bound of the total). */
export const reportConsistent = defineCheck({
  name: 'resources.report-consistent',
  provenance: 'assumed',
  rule: 'U10: the summary report counts every ticket once by status and once by priority.',
  kind: 'scenario',
  run(ex, a: { atLeast: number }) {
    const r = body(ex);
    const total = r.tickets?.total;
    const sum = (o: unknown) =>
      Object.values((o ?? {}) as Record<string, number>).reduce((x, y) => x + y, 0);
    const byStatus = sum(r.tickets?.by_status);
    const byPriority = sum(r.tickets?.by_priority);
    if (
      typeof total === 'number' &&
      total >= a.atLeast &&
      byStatus === total &&
      byPriority === total
    )
      return undefined;
    return {
      received: `total ${show(total)}, Σ by_status ${byStatus}, Σ by_priority ${byPriority}`,
      expected: `total ≥ ${a.atLeast}, equal to both sums`,
    };
  },
});

/** args: the id that must appear in the listed page; ex: the list answer. */
export const resourceListed = defineCheck({
  name: 'resources.listed',
  provenance: 'assumed',
  rule: 'U10: a created contact or rule appears in its list.',
  kind: 'scenario',
  run(ex, a: { id: string; what: string }) {
    return listRows(ex.response?.json).some((x) => x.id === a.id)
      ? undefined
      : { received: `${a.what} ${a.id} not listed`, expected: 'listed (first page, newest first)' };
  },
});

/** args: the tag the rule adds; ex: the creation of a ticket NOT matching the rule's condition. */
export const ruleConditions = defineCheck({
  name: 'resources.rule-conditions',
  provenance: 'assumed',
  rule: 'U10: a rule leaves tickets that do not match its conditions alone.',
  kind: 'scenario',
  run(ex, a: { tag: string }) {
    const tags = body(ex).tags;
    return Array.isArray(tags) && !tags.includes(a.tag)
      ? undefined
      : {
          received: `tags ${show(tags)}`,
          expected: `no ${show(a.tag)}: the ticket does not match the rule`,
        };
  },
});

export const RESOURCE_CHECKS = [
  resourceStatus,
  contactEchoed,
  macroApplied,
  ruleApplied,
  reportConsistent,
  resourceListed,
  ruleConditions,
];
