/**
 * The values of the X-RateLimit headers, not only their presence (exchange.ratelimit-headers):
 * cheap checks over the answers the contract suite gets anyway.
 *
 * Documented (service docs, Limits): X-RateLimit-Limit is the "requests per minute allowed" — a
 * key's plan rate, so one value per key — and X-RateLimit-Remaining the "requests left", a count.
 * Those checks declare no assumption and need none: they read a key's answers' headers by their
 * documented meaning, whatever a 429 carries besides (U22), Reset's unit (U23), the limiter (U24)
 * or whether a workspace's keys share it (U25) — each read otherwise by a reading of
 * server/readings/limits.ts, against which the gate passes.
 * How Remaining moves over time depends on how the burst is applied, which the docs do not show:
 * the two sequence checks hold it to the assumed token bucket (U24: capacity = burst, refill =
 * Limit/60 per second, Remaining = whole tokens left, one token per request).
 *
 * The sequence checks look back over the answers one process received with the same key
 * (`earlier`: a Playwright worker's, across its tests) and use only what holds whatever else
 * spends the key meanwhile — other workers, other clients of a shared staging key — since those
 * can only lower Remaining: after an answer e0 with Remaining R0, the whole tokens are < R0 + 1;
 * within the service time Δ that follows, at most Δ·Limit/60 refill; so the n requests granted
 * (2xx) after e0 answered satisfy n < R0 + 1 + Δ·Limit/60, and a later Remaining
 * R < R0 + 1 + Δ·Limit/60 − n. Δ comes from the deployment's own Date headers, never the local
 * clock (a deployment's clock may run at another speed): the whole seconds between the two Dates,
 * plus one for their truncation and e0's round trip (a decision taken before e0's Date was
 * stamped). Only 2xx and 429 answers of a request with a key are used: what else an error path
 * shows is the business of exchange.ratelimit-headers.
 */
import { intHeader, readRateHeaders } from '../../http/rate-budget.ts';
import { verdictRule } from '../load-verdicts.ts';
import { defineCheck } from '../registry.ts';
import type { Exchange, ExchangeContext } from '../types.ts';

/** What the sequence checks are given: the answers this process received before. */
export interface RateSequenceArgs {
  /** Earlier exchanges of this process (any key, any order); only those that fit are used. */
  earlier: readonly Exchange[];
}

/** How far back the sequence checks look (per exchange): enough for any burst a test sends. */
const LOOKBACK = 120;

interface RateView {
  ex: Exchange;
  key: string;
  status: number;
  limit?: number;
  remaining?: number;
  /** The deployment's Date, whole seconds. */
  dateS?: number;
  sentAt: number;
  answeredAt: number;
}

const granted = (s: number) => s >= 200 && s < 300;

/** The rate view of an exchange, or undefined when it is not a keyed 2xx/429 with timings. */
function view(ex: Exchange): RateView | undefined {
  const r = ex.response;
  const key = ex.request.headers.authorization ?? ex.request.headers.Authorization;
  if (!r || !key || ex.sentAt === undefined || ex.answeredAt === undefined) return undefined;
  if (!granted(r.status) && r.status !== 429) return undefined;
  const date = r.headers.date ? Date.parse(r.headers.date) : Number.NaN;
  // Values out of range are ratelimit.values-in-range's verdict, not evidence here.
  const { limit, remaining } = readRateHeaders(r.headers);
  return {
    ex,
    key,
    status: r.status,
    limit,
    remaining,
    dateS: Number.isFinite(date) ? Math.floor(date / 1000) : undefined,
    sentAt: ex.sentAt,
    answeredAt: ex.answeredAt,
  };
}

/** The same key's answers that had arrived before `x` was sent, oldest first (bounded). */
function before(x: RateView, earlier: readonly Exchange[]): RateView[] {
  const out: RateView[] = [];
  for (let i = earlier.length - 1; i >= 0 && out.length < LOOKBACK; i--) {
    const e = earlier[i]!;
    if (e === x.ex) continue;
    const v = view(e);
    if (v && v.key === x.key && v.answeredAt <= x.sentAt) out.push(v);
  }
  return out.sort((a, b) => a.answeredAt - b.answeredAt);
}

/** The most service seconds that can separate e0's and x's rate decisions. */
function spanS(e0: RateView, x: RateView): number {
  return Math.max(0, x.dateS! - e0.dateS!) + 1 + (e0.answeredAt - e0.sentAt) / 1000;
}

interface Bound {
  e0: RateView;
  /** Requests granted after e0 answered, up to and including x. */
  grants: number;
  /** The most whole tokens that can be left after x: R0 + 1 + Δ·Limit/60 − grants. */
  tokensBelow: number;
  spanS: number;
}

/**
 * The tightest bounds for `x` from each earlier answer e0 with a Remaining and a Date: the grants
 * counted are the same key's 2xx sent after e0 answered (and x itself when granted).
 */
function bounds(x: RateView, earlier: readonly Exchange[]): Bound[] {
  if (x.dateS === undefined) return [];
  const seen = before(x, earlier);
  const out: Bound[] = [];
  for (const e0 of seen) {
    if (e0.remaining === undefined || e0.dateS === undefined) continue;
    const limit = Math.max(e0.limit ?? 0, x.limit ?? 0);
    if (limit <= 0) continue;
    const between = seen.filter((e) => e.sentAt >= e0.answeredAt && granted(e.status)).length;
    const grants = between + (granted(x.status) ? 1 : 0);
    const span = spanS(e0, x);
    out.push({
      e0,
      grants,
      tokensBelow: e0.remaining + 1 + (span * limit) / 60 - grants,
      spanS: span,
    });
  }
  return out;
}

/** The operation an answer came from; a path no operation serves by its method and path. */
const opOf = (ex: Exchange) => {
  if (ex.operation) return `${ex.operation.method} ${ex.operation.template}`;
  const target = ex.request.requestTarget === undefined ? '' : ' (absolute-form target)';
  try {
    return `${ex.request.method} ${new URL(ex.request.url).pathname}${target}`;
  } catch {
    return ex.request.method;
  }
};

export const limitStable = defineCheck({
  name: 'ratelimit.limit-stable',
  provenance: 'documented',
  assumptions: [],
  rule: 'X-RateLimit-Limit is the requests per minute allowed — the plan rate of the key (limits apply per API key): one value for one key.',
  kind: 'sequence',
  appliesTo: { columns: 'every-operation' },
  run(ex, args: RateSequenceArgs) {
    const x = view(ex);
    if (!x || x.limit === undefined) return undefined;
    const first = before(x, args.earlier).find((e) => e.limit !== undefined);
    if (!first || first.limit === x.limit) return undefined;
    return {
      received: `X-RateLimit-Limit ${x.limit} on ${x.status} from ${opOf(ex)}; the same key answered ${first.limit} on ${first.status} from ${opOf(first.ex)} earlier in the run`,
      expected: 'one X-RateLimit-Limit per key across the run',
    };
  },
});

export const valuesInRange = defineCheck({
  name: 'ratelimit.values-in-range',
  provenance: 'documented',
  assumptions: [],
  rule: 'X-RateLimit-Remaining is the requests left — a count, never below zero; X-RateLimit-Limit, the requests per minute allowed, is at least one where a request was allowed.',
  kind: 'exchange',
  appliesTo: { columns: 'every-operation' },
  run(ex) {
    const r = ex.response;
    if (!r) return undefined;
    const remaining = intHeader(r.headers, 'x-ratelimit-remaining');
    const limit = intHeader(r.headers, 'x-ratelimit-limit');
    const bad = [
      ...(remaining !== undefined && remaining < 0 ? [`X-RateLimit-Remaining ${remaining}`] : []),
      ...(limit !== undefined && limit < 1 && granted(r.status)
        ? [`X-RateLimit-Limit ${limit}`]
        : []),
    ];
    if (bad.length === 0) return undefined;
    return {
      received: `${bad.join(', ')} on ${r.status} from ${opOf(ex)}`,
      expected: 'Remaining ≥ 0, and Limit ≥ 1 on an answer that was allowed',
    };
  },
});

/**
 * A 429 that says requests are left contradicts the documented header. Documented, no
 * assumption, because it holds however the gaps read:
 * - "The API uses standard HTTP status codes": a 429 is Too Many Requests (RFC 6585 §4), a request
 *   refused for its rate. Which status a deployment refuses with is not shown (U22): this judges
 *   only the 429s a target does send, by the standard meaning of that code.
 * - X-RateLimit-Remaining is the "requests left in the current window", and "a client backs off
 *   when X-RateLimit-Remaining reaches zero": the one signal the docs give a client to stop. A
 *   refusal for the rate means none were left; one that says 3 are left tells a client that obeys
 *   the docs to send on into more 429s.
 * - Whatever a 429 carries besides (U22: Retry-After or not), Reset's unit (U23), how the burst
 *   applies (U24: a bucket's whole tokens, a window's count) and whose requests share the limit
 *   (U25): in each the limit that refused the request has nothing left when it refuses. The docs
 *   name no other limit on API requests (the "other limits" are field lengths, page and body
 *   sizes, webhook rates), so the header cannot be counting a limit that did not refuse.
 * Counting the request itself or not changes nothing: nothing was left before it either.
 */
export const refusedNoneLeft = defineCheck({
  name: 'ratelimit.refused-none-left',
  provenance: 'documented',
  assumptions: [],
  rule: 'X-RateLimit-Remaining is the requests left in the current window, and a client backs off when it reaches zero: a 429 (too many requests) says none are left.',
  kind: 'exchange',
  // Evidence only where a target refused for the rate: a 2xx says nothing about it.
  judges: (ex) => ex.response?.status === 429,
  run(ex) {
    const r = ex.response;
    if (r?.status !== 429) return undefined;
    // An absent or non-integer header is exchange.ratelimit-headers' verdict, a negative one
    // ratelimit.values-in-range's.
    const remaining = intHeader(r.headers, 'x-ratelimit-remaining');
    if (remaining === undefined || remaining <= 0) return undefined;
    return {
      received: `429 from ${opOf(ex)} with X-RateLimit-Remaining ${remaining}`,
      expected:
        'X-RateLimit-Remaining 0 on a 429: a request refused for the rate leaves no request in the window',
    };
  },
});

export const grantsWithinRemaining = defineCheck({
  name: 'ratelimit.grants-within-remaining',
  provenance: 'assumed',
  rule: 'U24 (token bucket, refill Limit/60 per second): no more requests are granted after an answer than its X-RateLimit-Remaining plus the refill since — a 2xx right after Remaining 0 is inconsistent.',
  kind: 'sequence',
  run(ex, args: RateSequenceArgs) {
    const x = view(ex);
    if (!x || !granted(x.status)) return undefined;
    // The n-th grant is impossible once n ≥ R0 + 1 + Δ·Limit/60: no whole token could be left.
    const hit = bounds(x, args.earlier).find((b) => b.tokensBelow <= 0);
    if (!hit) return undefined;
    return {
      received: `${hit.grants} requests granted (2xx) within ${hit.spanS.toFixed(1)} s after an answer with X-RateLimit-Remaining ${hit.e0.remaining} and Limit ${hit.e0.limit ?? '(absent)'} (${opOf(hit.e0.ex)} → ${opOf(ex)})`,
      expected: `at most ${Math.max(0, Math.ceil(hit.tokensBelow + hit.grants) - 1)} (Remaining + 1 + refill at Limit/60 per second, by the Date headers)`,
    };
  },
});

export const remainingFalls = defineCheck({
  name: 'ratelimit.remaining-falls',
  provenance: 'assumed',
  rule: 'U24 (token bucket: Remaining = whole tokens left, one per request, refill Limit/60 per second): X-RateLimit-Remaining falls with each granted request unless the time between refilled it.',
  kind: 'sequence',
  run(ex, args: RateSequenceArgs) {
    const x = view(ex);
    if (!x || x.remaining === undefined) return undefined;
    // Whole tokens after x are < tokensBelow; a Remaining at or above it did not fall. Where
    // more was granted than any token could pay for (tokensBelow ≤ 0), no Remaining could be
    // right: that is ratelimit.grants-within-remaining's verdict, not a Remaining that stuck.
    const hit = bounds(x, args.earlier).find(
      (b) => b.tokensBelow > 0 && x.remaining! >= b.tokensBelow + 1e-6,
    );
    if (!hit) return undefined;
    return {
      received: `X-RateLimit-Remaining ${x.remaining} after ${hit.grants} granted requests within ${hit.spanS.toFixed(1)} s of an answer with Remaining ${hit.e0.remaining} (Limit ${hit.e0.limit ?? '(absent)'}; ${opOf(hit.e0.ex)} → ${opOf(ex)})`,
      expected: `at most ${Math.max(0, Math.ceil(hit.tokensBelow) - 1)} (Remaining − granted requests + refill at Limit/60 per second, by the Date headers)`,
    };
  },
});

/** The plan the user declared the key of this answer under, if any. */
function declaredPlan(ex: Exchange, ctx: ExchangeContext | undefined) {
  const auth = ex.request.headers.authorization ?? ex.request.headers.Authorization;
  return auth && ex.response ? ctx?.planOf?.(auth) : undefined;
}

/**
 * The same rule the load area's `limit-header` verdict judges on its own plan keys, held here on
 * every answer the contract suite gets with a key the user listed under a plan (HARNESS_TEAM_KEYS,
 * HARNESS_GROWTH_KEYS, HARNESS_ENTERPRISE_KEYS with HARNESS_ENTERPRISE_RATE): a Team key whose
 * answers say 600 is not on the plan it was sold as, whatever else holds.
 */
export const planLimit = defineCheck({
  name: 'ratelimit.plan-limit',
  provenance: 'documented',
  assumptions: [],
  rule: `${verdictRule('limit-header').title}: requests per minute of the key's plan (Team 120, Growth 600, Enterprise custom) — for a key the user declared under a plan.`,
  kind: 'exchange',
  appliesTo: { columns: 'every-operation', requires: ['declared-plan'] },
  judges: (ex, ctx: ExchangeContext) => declaredPlan(ex, ctx) !== undefined,
  run(ex, ctx: ExchangeContext) {
    const plan = declaredPlan(ex, ctx);
    if (!plan) return undefined;
    const r = ex.response!;
    const limit = intHeader(r.headers, 'x-ratelimit-limit');
    // An absent or non-integer header is exchange.ratelimit-headers' verdict.
    if (limit === undefined || limit === plan.ratePerMin) return undefined;
    return {
      received: `X-RateLimit-Limit ${limit} on ${r.status} from ${opOf(ex)} to a key declared ${plan.plan}`,
      expected: `${plan.ratePerMin}, the ${plan.plan} plan's requests per minute (${plan.source})`,
    };
  },
});

export const RATE_LIMIT_VALUE_CHECKS = [
  planLimit,
  limitStable,
  valuesInRange,
  refusedNoneLeft,
  grantsWithinRemaining,
  remainingFalls,
];

/**
 * What of an exchange the sequence checks need, without bodies: a process keeps these for the
 * rest of its run.
 */
export function rateTrace(ex: Exchange): Exchange {
  const auth = ex.request.headers.authorization;
  return {
    request: {
      method: ex.request.method,
      url: ex.request.url,
      headers: auth === undefined ? {} : { authorization: auth },
    },
    ...(ex.response
      ? { response: { status: ex.response.status, headers: ex.response.headers, bodyText: '' } }
      : {}),
    durationMs: ex.durationMs,
    ...(ex.operation ? { operation: ex.operation } : {}),
    ...(ex.sentAt !== undefined ? { sentAt: ex.sentAt } : {}),
    ...(ex.answeredAt !== undefined ? { answeredAt: ex.answeredAt } : {}),
  };
}
