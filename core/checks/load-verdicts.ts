/**
 * The plan-limit verdicts' rules: each verdict's id, rule and provenance, in the order reports list
 * them — the one place they are written, beside the contract checks' registry. The load judges
 * (load/lib/verdicts.ts) and the reference deployment's fault catalogue (server/faults.ts) read
 * them here. This file imports nothing: k6 runs load/lib, and k6 cannot import Node modules
 * (the import-graph test keeps it so).
 */
export type Provenance = 'documented' | 'assumed' | 'observed';

/**
 * The plan table of the service docs ("Limits"): requests per minute and burst per plan;
 * Enterprise is "custom" and has no documented numbers. The load area (load/lib/plans.ts) sizes
 * and judges its runs by it, the contract area holds a key the user declared under a plan to it
 * (ratelimit.plan-limit).
 */
export const DOCUMENTED_PLANS = {
  team: { ratePerMin: 120, burst: 200 },
  growth: { ratePerMin: 600, burst: 1000 },
  enterprise: null,
} as const;

/**
 * Each verdict's rule and provenance, in the order reports list the verdicts: the one place they
 * are written (the judges below and the reference deployment's fault catalogue read them here).
 * A documented verdict declares the gaps its judgement may lean on (`assumptions`, `[]` for none),
 * as a documented check does: one that an assumed model decided is an assumption mismatch naming
 * the gap (load/lib/verdicts.ts `leansOn`), never a gate failure.
 */
export const VERDICT_RULES = [
  {
    id: 'limit-header',
    title: 'X-RateLimit-Limit equals the plan rate on every response',
    provenance: 'documented',
    assumptions: [],
  },
  {
    id: 'fresh-key',
    title: 'a fresh key announces the plan burst (highest Remaining in S1 = burst − 1)',
    provenance: 'assumed',
    gap: 'U24',
  },
  // B̂, r̂ and the under-rate phase read the answers through a token bucket (U24): only where the
  // run showed one is their judgement the deployment's alone.
  { id: 'burst', title: 'B̂ equals the plan burst', provenance: 'documented', assumptions: ['U24'] },
  { id: 'rate', title: 'r̂ equals the plan rate', provenance: 'documented', assumptions: ['U24'] },
  // The plan's requests per minute are a client's whatever it does: one that keeps sending past
  // the rate, ignoring every 429, is still granted them. Counted over S2, drained, where only a
  // bucket grants them as they refill: a window grants nothing until its boundary (U24).
  {
    id: 'rate-held',
    title:
      'a client that keeps sending past the rate, ignoring 429s, still gets the plan rate (S2: at least half of it accepted)',
    provenance: 'documented',
    assumptions: ['U24'],
  },
  {
    id: 'no-429-below-rate',
    title: 'no 429 while sending at 0.9 × the rate',
    provenance: 'documented',
    assumptions: ['U24'],
  },
  {
    id: 'retry-after-present',
    title: 'every 429 carries Retry-After',
    provenance: 'assumed',
    gap: 'U22',
  },
  {
    id: 'retry-after-honoured',
    title: 'a retry after waiting Retry-After succeeds',
    provenance: 'assumed',
    gap: 'U22',
  },
  // Documented however U22–U25 read (as the contract suite's ratelimit.refused-none-left): a 429
  // is too many requests, and Remaining the requests left, which the docs tell a client to back
  // off at when it reaches zero; every response carries it, so an absent one is no 0 either.
  {
    id: 'remaining-zero-on-429',
    title: 'X-RateLimit-Remaining is 0 on every 429: a refusal for the rate leaves no request',
    provenance: 'documented',
    assumptions: [],
  },
  {
    id: 'remaining-never-rises',
    title: 'Remaining never rises within a burst beyond the refill',
    provenance: 'assumed',
    gap: 'U24',
  },
  {
    id: 'remaining-matches-burst',
    title: 'Remaining counts whole tokens: the highest Remaining in S1 + 1 lies in B̂’s interval',
    provenance: 'assumed',
    gap: 'U24',
  },
  {
    id: 'reset-unit',
    title: 'X-RateLimit-Reset is in epoch seconds',
    provenance: 'assumed',
    gap: 'U23',
  },
  { id: 'algorithm', title: 'the limiter is a token bucket', provenance: 'assumed', gap: 'U24' },
  { id: 'scope', title: 'one bucket per key', provenance: 'assumed', gap: 'U25' },
  {
    // Documented however U25 reads within a workspace: "Limits apply per workspace, per API key"
    // gives another workspace's key a bucket of its own, whichever way the scope verdict goes.
    id: 'other-workspace',
    title: "draining one workspace's key does not refuse another workspace's key",
    provenance: 'documented',
    assumptions: [],
  },
  {
    id: 'no-dropped-requests',
    title: 'every planned request was sent on schedule',
    provenance: 'observed',
  },
  { id: 'only-200-or-429', title: 'every answer is a success or a 429', provenance: 'observed' },
] as const;

export type VerdictId = (typeof VERDICT_RULES)[number]['id'];

export const VERDICT_IDS: readonly VerdictId[] = VERDICT_RULES.map((v) => v.id);

/** What every verdict says before it is judged: its id, rule, provenance and gap. */
export interface VerdictRule {
  id: VerdictId;
  title: string;
  provenance: Provenance;
  /** docs/assumptions.md gap the assumption fills, when assumed. */
  gap?: string;
}

export function verdictRule(id: VerdictId): VerdictRule {
  const v: Omit<VerdictRule, 'id'> = VERDICT_RULES.find((r) => r.id === id)!;
  return { id, title: v.title, provenance: v.provenance, ...(v.gap ? { gap: v.gap } : {}) };
}

/** The gaps a documented verdict's judgement may lean on (none for an assumed or observed one). */
export function verdictAssumptions(id: VerdictId): readonly string[] {
  const v = VERDICT_RULES.find((r) => r.id === id);
  return v && 'assumptions' in v ? v.assumptions : [];
}
