/**
 * The seeded state of the reference deployment: one workspace per plan plus a second Team
 * workspace (`other`) for isolation checks; three keys each (two full — S5 of the load run
 * needs two keys of one workspace — and one read-only); a few macros; one disabled rule; two
 * contacts (none in `other`).
 */
import { ENTERPRISE_DEFAULT, PLAN_LIMITS } from './plans.ts';
import type { LimitConfig } from './rate-limit/types.ts';
import { type Plan, type Store, newId } from './store.ts';

export type SeedName = 'team' | 'growth' | 'enterprise' | 'other';

export interface SeededWorkspace {
  id: string;
  plan: Plan;
  /** Requests per minute. */
  rate: number;
  burst: number;
  keys: { full: string; full2: string; readOnly: string };
  keyIds: { full: string; full2: string; readOnly: string };
}

export interface Credentials {
  adminToken: string;
  workspaces: Record<SeedName, SeededWorkspace>;
}

const MACROS = [
  {
    name: 'Close as solved',
    actions: { status: 'closed' as const, reply: 'Glad we could help. Closing this ticket.' },
  },
  { name: 'Escalate', actions: { priority: 'high' as const, tags_add: ['escalated'] } },
  {
    name: 'Waiting on customer',
    actions: { status: 'pending' as const, reply: 'Could you send us more details?' },
  },
];

/**
 * A workspace's rule list is never empty, so the rule matrix's isolation cell on GET /v1/rules
 * always has an object of workspace A's to look for, found on A's first page rather than created
 * by the run (contracts/matrix-objects.ts) — which would make what a run creates, and the answer
 * shapes its snapshot records, depend on which test ran first. Disabled: it acts on no ticket.
 * Its shape is the one the rules test creates (a tag condition, a tags_add action).
 */
const RULE = {
  name: 'Tag VIP tickets (disabled)',
  event: 'ticket.created',
  conditions: { tag: 'vip' },
  actions: { tags_add: ['vip-seen'] },
  enabled: false,
};

/**
 * Two contacts per workspace but the `other` one: a page of one then always has a next page, so
 * the rule matrix's read of the contact list at its smallest page (contracts/rule-matrix.spec.ts,
 * the read-only key) makes the deployment compute the next cursor on every run, not only when the
 * run's own contacts happen to outnumber a page — and the answer shapes a snapshot records do not
 * depend on which test ran first. The `other` workspace (the isolation checks' workspace B, which
 * creates no contact) keeps an empty contact list, so the matrix's read of B's list still gets
 * an empty page answered: a deployment that computes a next cursor for it (a 500) still fails.
 */
const CONTACTS = [
  { email: 'ada@customer.example', name: 'Ada Seed' },
  { email: 'zoe@customer.example', name: 'Zoë Seed' },
];

export function seed(
  store: Store,
  adminToken: string,
  enterprise: LimitConfig = ENTERPRISE_DEFAULT,
): Credentials {
  const plans: Record<SeedName, { plan: Plan; limits: LimitConfig }> = {
    team: { plan: 'team', limits: PLAN_LIMITS.team },
    growth: { plan: 'growth', limits: PLAN_LIMITS.growth },
    enterprise: { plan: 'enterprise', limits: enterprise },
    other: { plan: 'team', limits: PLAN_LIMITS.team },
  };
  const workspaces = {} as Record<SeedName, SeededWorkspace>;
  for (const [name, { plan, limits }] of Object.entries(plans) as Array<
    [SeedName, (typeof plans)[SeedName]]
  >) {
    const ws = store.addWorkspace({
      name,
      plan,
      ratePerMin: limits.ratePerMin,
      burst: limits.burst,
    });
    const full = store.issueKey(ws.id, 'full');
    const full2 = store.issueKey(ws.id, 'full');
    const readOnly = store.issueKey(ws.id, 'read');
    for (const m of MACROS) {
      const id = newId('mac', 6);
      store.macros.set(id, { id, workspaceId: ws.id, name: m.name, actions: m.actions });
    }
    for (const c of name === 'other' ? [] : CONTACTS) {
      const id = newId('ctc');
      store.contacts.set(id, {
        id,
        seq: store.nextSeq(),
        workspaceId: ws.id,
        ...c,
        createdAtMs: 0,
      });
    }
    const ruleId = newId('rul', 6);
    store.rules.set(ruleId, { id: ruleId, workspaceId: ws.id, ...RULE, createdAtMs: 0 });
    workspaces[name] = {
      id: ws.id,
      plan,
      rate: limits.ratePerMin,
      burst: limits.burst,
      keys: { full: full.secret, full2: full2.secret, readOnly: readOnly.secret },
      keyIds: { full: full.id, full2: full2.id, readOnly: readOnly.id },
    };
  }
  return { adminToken, workspaces };
}
