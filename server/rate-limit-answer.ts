/**
 * The rate-limit side of an answer, shared by the guard (routed requests) and the transport
 * errors (requests no route sees): the bearer token, the X-RateLimit and Retry-After values, and
 * the token a request that never reached a route takes. Its own file so that neither of those two
 * imports the other's helpers back (guard.ts → transport-errors.ts → here, no circle).
 */
import type { ServiceContext } from './context.ts';
import { enforcedLimit } from './plans.ts';
import type { Decision } from './rate-limit/types.ts';
import type { Workspace } from './store.ts';

/**
 * X-RateLimit-Reset: when the key's limit is whole again, in the unit the deployment reads the
 * "reset marker" in (U23).
 */
function resetMarker(ctx: ServiceContext, d: Decision): number {
  if (ctx.behaviour.resetUnit === 'epoch-ms') return Math.ceil(d.resetAtMs);
  if (ctx.behaviour.resetUnit === 'delta-s')
    return Math.max(0, Math.ceil((d.resetAtMs - ctx.clock.now()) / 1000));
  return Math.ceil(d.resetAtMs / 1000);
}

/** The three X-RateLimit header values for a decision (the remaining faults apply here). */
export function rateHeaderValues(
  ctx: ServiceContext,
  limit: number,
  d: Decision,
): Record<string, string> {
  // FAULT 429-remaining-positive: a refusal counts the token still refilling as one left.
  const refusedOff = !d.allowed && ctx.faults.has('429-remaining-positive') ? 1 : 0;
  const remaining = ctx.faults.has('ratelimit-remaining-negative')
    ? -(d.remaining + 1)
    : d.remaining + refusedOff + (ctx.faults.has('remaining-off-by-one') ? 1 : 0);
  const reset = resetMarker(ctx, d);
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(reset),
  };
}

/** Retry-After (seconds) of a refused request, or undefined where it carries none (U22). */
export function retryAfterValue(ctx: ServiceContext, d: Decision): string | undefined {
  if (ctx.behaviour.retryAfter === 'none') return undefined;
  return String(Math.max(1, Math.ceil(d.retryAfterMs / 1000)));
}

/** The bearer token of an Authorization header: undefined when absent, '' when malformed. */
export function bearer(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

/**
 * Takes one token for a request that never reached a route (bad request line, bad URL,
 * unsupported Expect): from the key's bucket when it carries a valid key, else from the
 * per-address bucket — so even these answers carry honest X-RateLimit headers.
 */
export function takeUnrouted(
  ctx: ServiceContext,
  authorization: unknown,
  ip: string,
): { limit: number; decision: Decision } {
  const now = ctx.clock.now();
  const token = bearer(authorization);
  const k = token ? ctx.store.keysBySecret.get(token) : undefined;
  const workspace = k && !k.revoked ? ctx.store.workspaces.get(k.workspaceId) : undefined;
  if (k && workspace) {
    const bucket = ctx.faults.has('global-bucket')
      ? ''
      : ctx.behaviour.limitScope === 'workspace'
        ? `ws:${workspace.id}`
        : `key:${k.id}`;
    const decision = ctx.limiter.take(bucket, enforcedLimit(workspace, ctx.faults), now);
    return { limit: workspace.ratePerMin, decision };
  }
  const decision = ctx.limiter.take(`anon:${ip}`, ctx.anonymousLimit, now);
  return { limit: ctx.anonymousLimit.ratePerMin, decision };
}

/**
 * The header values a 2xx of `workspace` is sent with under the faults that bend them after the
 * decision (static headers, a frozen Remaining), or undefined when none is on.
 */
export function bentRateHeaders(
  ctx: ServiceContext,
  workspace: Workspace,
): Record<string, string> | undefined {
  if (ctx.faults.has('ratelimit-static-headers'))
    return { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' };
  if (ctx.faults.has('ratelimit-remaining-frozen'))
    return { 'x-ratelimit-remaining': String(workspace.burst - 1) };
  return undefined;
}
