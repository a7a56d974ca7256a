/**
 * A key the user lists under a plan is held to that plan's documented requests per minute on
 * every answer of the contract area (ratelimit.plan-limit); answers to a key nobody declared are
 * not judged (no result at all, not a pass).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checks } from '../../core/checks/index.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { loadConfig } from '../../core/config.ts';
import { declaredPlans } from '../../core/target/declared-plans.ts';

const answer = (key: string, limit: string): Exchange => ({
  request: {
    method: 'GET',
    url: 'https://x/v1/tickets',
    headers: { authorization: `Bearer ${key}` },
  },
  response: {
    status: 200,
    headers: { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '1' },
    bodyText: '{}',
  },
  durationMs: 1,
});

const config = (env: Record<string, string>) =>
  loadConfig({
    HARNESS_BASE_URL: 'https://staging.example.com',
    HARNESS_API_KEY: 'k_team_a',
    ...env,
  });

const resolvedOf = (cfg: ReturnType<typeof config>) => ({
  keys: {
    full: cfg.apiKey,
    readOnly: cfg.readOnlyKey,
    otherWorkspace: cfg.otherWorkspaceKey,
    plans: {},
  },
});

describe('which plan a key is declared under', () => {
  test('a key listed under a plan; the read-only key of its workspace shares it; an undeclared key has none', () => {
    const cfg = config({
      HARNESS_TEAM_KEYS: 'k_team_a,k_team_b',
      HARNESS_READONLY_KEY: 'k_ro_a',
      HARNESS_OTHER_WORKSPACE_KEY: 'k_other',
    });
    const planOf = declaredPlans(cfg, resolvedOf(cfg));
    assert.deepEqual(planOf('Bearer k_team_a'), {
      plan: 'team',
      ratePerMin: 120,
      source: 'the documented plan table',
    });
    assert.equal(planOf('Bearer k_ro_a')?.plan, 'team');
    assert.equal(planOf('Bearer k_other'), undefined);
    assert.equal(planOf('Basic k_team_a'), undefined);
  });

  test('Growth is 600; Enterprise only with the user’s number', () => {
    const growth = config({ HARNESS_GROWTH_KEYS: 'k_team_a' });
    assert.equal(declaredPlans(growth, resolvedOf(growth))('Bearer k_team_a')?.ratePerMin, 600);
    const ent = config({ HARNESS_ENTERPRISE_KEYS: 'k_team_a' });
    assert.equal(declaredPlans(ent, resolvedOf(ent))('Bearer k_team_a'), undefined);
    const given = config({ HARNESS_ENTERPRISE_KEYS: 'k_team_a', HARNESS_ENTERPRISE_RATE: '900' });
    assert.deepEqual(declaredPlans(given, resolvedOf(given))('Bearer k_team_a'), {
      plan: 'enterprise',
      ratePerMin: 900,
      source: 'HARNESS_ENTERPRISE_RATE',
    });
  });
});

describe('ratelimit.plan-limit', () => {
  const cfg = config({ HARNESS_TEAM_KEYS: 'k_team_a' });
  const planOf = declaredPlans(cfg, resolvedOf(cfg));

  test('a Team key answered with X-RateLimit-Limit 600 fails; 120 holds', () => {
    const v = new Verdict(checks, 't', undefined, undefined, { planOf });
    v.checkExchanges([answer('k_team_a', '600'), answer('k_team_a', '120')]);
    const mine = v.results.filter((r) => r.check === 'ratelimit.plan-limit');
    assert.deepEqual(
      mine.map((r) => r.passed),
      [false, true],
    );
    const f = mine[0]!.failure!;
    assert.equal(f.provenance, 'documented');
    assert.match(f.received, /X-RateLimit-Limit 600 .* declared team/);
    assert.match(f.expected, /^120, the team plan/);
    assert.equal(`${f.repro}`.includes('k_team_a'), false, 'the key is never shown');
  });

  test('an answer to an undeclared key, or without a context, is not judged at all', () => {
    const v = new Verdict(checks, 't', undefined, undefined, { planOf });
    v.checkExchanges([answer('k_unknown', '600')]);
    assert.equal(v.results.filter((r) => r.check === 'ratelimit.plan-limit').length, 0);
    const bare = new Verdict(checks, 't');
    bare.checkExchanges([answer('k_team_a', '600')]);
    assert.equal(bare.results.filter((r) => r.check === 'ratelimit.plan-limit').length, 0);
  });
});
