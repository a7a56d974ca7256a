/**
 * Which plan the user says a key is on, for the contract area's ratelimit.plan-limit: a key is
 * declared by being listed under a plan (HARNESS_TEAM_KEYS, HARNESS_GROWTH_KEYS,
 * HARNESS_ENTERPRISE_KEYS) — the lists the load area already reads, so no new variable says the
 * same thing twice. HARNESS_READONLY_KEY belongs to HARNESS_API_KEY's workspace (that is what the
 * variable means), and limits apply per workspace plan, so it shares that key's plan unless it is
 * listed itself. Enterprise is "custom": held to HARNESS_ENTERPRISE_RATE, and not at all without
 * it. The embedded reference deployment declares the plans it seeded (the harness is its user).
 */
import { DOCUMENTED_PLANS } from '../checks/load-verdicts.ts';
import type { DeclaredPlan } from '../checks/types.ts';
import type { HarnessConfig, PlanName } from '../config.ts';
import type { ResolvedTarget } from './resolve-target.ts';

/** What `planOf` answers for: the key in an `Authorization: Bearer <key>` header. */
export type PlanOf = (authorization: string) => DeclaredPlan | undefined;

function limitOf(
  plan: PlanName,
  enterprise: { rate?: number; source: string },
): DeclaredPlan | undefined {
  const doc = DOCUMENTED_PLANS[plan];
  if (doc) return { plan, ratePerMin: doc.ratePerMin, source: 'the documented plan table' };
  return enterprise.rate === undefined
    ? undefined
    : { plan, ratePerMin: enterprise.rate, source: enterprise.source };
}

/** The declared plan of each key of the run (raw keys: kept in memory, never written). */
export function declaredPlans(
  cfg: Pick<HarnessConfig, 'planKeys' | 'enterpriseLimits'>,
  resolved: Pick<ResolvedTarget, 'keys' | 'service'>,
): PlanOf {
  const byKey = new Map<string, DeclaredPlan>();
  const seeded = resolved.service?.credentials.workspaces;
  const enterprise =
    seeded?.enterprise.rate !== undefined
      ? { rate: seeded.enterprise.rate, source: 'the Enterprise numbers the harness seeded' }
      : { rate: cfg.enterpriseLimits.ratePerMin, source: 'HARNESS_ENTERPRISE_RATE' };
  const declare = (key: string | undefined, plan: PlanName | undefined) => {
    const limit = plan && limitOf(plan, enterprise);
    if (key && limit && !byKey.has(key)) byKey.set(key, limit);
  };
  if (seeded) {
    for (const ws of Object.values(seeded))
      for (const key of Object.values(ws.keys)) declare(key, ws.plan);
  }
  for (const plan of ['team', 'growth', 'enterprise'] as const) {
    for (const key of cfg.planKeys[plan]) declare(key, plan);
    for (const key of resolved.keys.plans[plan] ?? []) declare(key, plan);
  }
  const full = resolved.keys.full;
  const ofFull = full ? byKey.get(full) : undefined;
  if (resolved.keys.readOnly && ofFull && !byKey.has(resolved.keys.readOnly))
    byKey.set(resolved.keys.readOnly, ofFull);
  return (authorization) => {
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    return key ? byKey.get(key) : undefined;
  };
}
