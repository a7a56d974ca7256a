/**
 * Small helpers shared by the contract spec files: making tagged tickets, turning a captured
 * webhook delivery into an Exchange the checks understand, and the cross-cutting probes every
 * test feeds (U22 429s, U27 deprecation headers) from its own exchanges.
 */
import type { Exchange } from '../core/checks/types.ts';
import type { ApiClient, TypedExchange } from '../core/http/api-client.ts';
import {
  type CapturedDelivery,
  deliveryAsExchange,
  deliveryJson,
} from '../core/webhooks/capture-receiver.ts';
import { deliveryRepro } from '../core/webhooks/delivery-repro.ts';
import { asShared, type Subscription, type Target } from './fixtures.ts';

export const requester = { email: 'ada@example.com', name: 'Ada Lovelace' };

export type Tag = { subject: (s: string) => string; tags: string[] };
export type Priority = 'low' | 'normal' | 'high';

/** Creates a ticket carrying the run tag; `extraTags` are added to the run tags. */
export function createTicket(
  api: ApiClient,
  tag: Tag,
  subject: string,
  o: { priority?: Priority; extraTags?: string[]; requester?: typeof requester } = {},
): Promise<TypedExchange<any>> {
  return api.call('post', '/v1/tickets', {
    body: {
      subject: tag.subject(subject),
      requester: o.requester ?? requester,
      ...(o.priority ? { priority: o.priority } : {}),
      tags: [...tag.tags, ...(o.extraTags ?? [])],
    },
  });
}

/** What `idOf` answers when a creation gave no id. */
export const MISSING_ID = 'tkt_harness_missing';

/** The id of a created ticket, or a placeholder that no deployment knows (the test goes on). */
export function idOf(ex: { json?: unknown }): string {
  const id = (ex.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : MISSING_ID;
}

/** An object of workspace A as its creation answered it. */
export interface Readable {
  id: string;
  json: Record<string, unknown>;
  /** The creation itself (request and answer), for the checks that judge a creation's answer. */
  created: Exchange;
}

const readables = new Map<string, Promise<Readable>>();

/**
 * One object per worker (module state: one worker, one target) that the tests which only read it
 * share: one ticket serves every check that only reads it, each more costs the key's budget. Never written to: a test
 * that writes, or whose refused write a faulty deployment might apply, makes its own. The first
 * test that needs it creates it (the creation is that test's exchange); the worker's clean-up
 * closes or deletes it. A creation that gave no id is not kept: the next test tries again.
 */
function readable(
  kind: string,
  create: () => Promise<Exchange & { json?: unknown }>,
): Promise<Readable> {
  let hit = readables.get(kind);
  if (!hit) {
    // The worker's set-up, not the cost of the test that happens to need it first (asShared).
    hit = asShared(create).then((ex) => {
      const r = { id: idOf(ex), json: (ex.json ?? {}) as Record<string, unknown>, created: ex };
      if (r.id === MISSING_ID) readables.delete(kind);
      return r;
    });
    hit.catch(() => readables.delete(kind));
    readables.set(kind, hit);
  }
  return hit;
}

/**
 * Workspace A's ticket that read-only checks share in this worker (never written to): priority
 * high (not the default, so a priority dropped on creation or on a read shows), the suite's
 * requester. Its creation is also the one the creation checks judge ('create ticket › a new
 * ticket …'), and its GET the read-back ('ticket lifecycle › get …'): a ticket per check would
 * only cost the key's budget a creation and a clean-up close each.
 */
export const readableTicket = (api: ApiClient, tag: Tag): Promise<Readable> =>
  readable('ticket', () => createTicket(api, tag, 'read by several checks', { priority: 'high' }));

/** Workspace A's contact that read-only checks share in this worker (never written to). */
export const readableContact = (api: ApiClient): Promise<Readable> =>
  readable('contact', () =>
    api.call('post', '/v1/contacts', { body: { email: 'read-shared@example.com' } }),
  );

/** A unique id-shaped value no deployment has issued. */
export function unknownId(prefix = 'tkt'): string {
  return `${prefix}_harness_unknown_${Math.random().toString(36).slice(2, 10)}`;
}

/** Where the delivery was sent: the public URL's path may be kept by the tunnel, or stripped. */
function deliveryUrl(receiverUrl: string, path: string): string {
  const base = new URL(receiverUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return path.startsWith(`${prefix}/`)
    ? `${base.origin}${path}`
    : `${receiverUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * A captured delivery as the checks' exchange; its repro replays it signed in the shell with the
 * endpoint's secret variable (`WEBHOOK_SECRET` for an endpoint the harness registered itself).
 */
export function deliveryExchange(
  d: CapturedDelivery,
  receiverUrl: string,
  sub: Pick<Subscription, 'secretEnv'>,
): Exchange {
  return {
    repro: deliveryRepro(d, {
      url: deliveryUrl(receiverUrl, d.path),
      secretEnv: sub.secretEnv ?? 'WEBHOOK_SECRET',
    }),
    ...deliveryAsExchange(d, `${receiverUrl}${d.path}`),
  };
}

export const eventOf = (d: CapturedDelivery): string | undefined => deliveryJson(d)?.event;
export const ticketIdOf = (d: CapturedDelivery): string | undefined => deliveryJson(d)?.ticket?.id;

/**
 * Waits until `pred` holds over the subscription's deliveries; on timeout returns what arrived
 * instead of throwing, so the test goes on to the check that names what is missing.
 */
export async function waitDeliveries(
  sub: Subscription,
  pred: (d: CapturedDelivery[]) => boolean,
  /** Default: the subscription's (short on the embedded deployment, longer on a real one). */
  timeoutMs?: number,
): Promise<CapturedDelivery[]> {
  try {
    return await sub.waitFor(pred, timeoutMs);
  } catch {
    return sub.deliveries();
  }
}

/**
 * Lets the service finish sending: the reference's admin flush when available (it waits until
 * no delivery is pending), otherwise a short pause.
 */
export async function settleDeliveries(target: Target, pauseMs = 500): Promise<void> {
  if (target.resolved.admin) {
    const r = await target.admin('POST', '/admin/deliveries/flush', {});
    if (r.status === 200) return;
  }
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}

/** Removes a subscription made through the admin surface (keeps later fan-out small). */
export async function unsubscribe(target: Target, sub: Subscription): Promise<void> {
  if (target.resolved.admin && sub.endpointId)
    await target.admin('DELETE', `/admin/webhooks/${sub.endpointId}`, {});
}

/** Records the cross-cutting gaps a test happened to observe (call from `test.afterEach`). */
export function observeCrossCutting(
  exchanges: Exchange[],
  probe: (gap: string, id: string, value: unknown) => void,
): void {
  for (const ex of exchanges) {
    const r = ex.response;
    if (!r) continue;
    if (r.status === 429) {
      probe('U22', 'rate-limited-answer', {
        status: 429,
        retryAfter: r.headers['retry-after'] ?? null,
        remaining: r.headers['x-ratelimit-remaining'] ?? null,
      });
    }
    const dep = r.headers.deprecation;
    const sunset = r.headers.sunset;
    if (dep !== undefined || sunset !== undefined) {
      probe('U27', 'deprecation-headers-seen', {
        operation: ex.operation
          ? `${ex.operation.method} ${ex.operation.template}`
          : ex.request.url,
        deprecation: dep ?? null,
        sunset: sunset ?? null,
      });
    }
  }
}

/**
 * Skips a test that writes to the target when the run is read-only (HARNESS_READ_ONLY=1, for
 * production): call it first, or from `test.beforeEach` in a file whose tests all write.
 */
export function skipIfReadOnly(
  target: Target,
  skip: (cond: boolean, reason: string) => void,
): void {
  skip(target.cfg.readOnly, 'not run: writes to the target (HARNESS_READ_ONLY=1)');
}

/**
 * Why a list read that shows only what `limit` does is not sent, or undefined: the preflight saw
 * the ticket list ignore `limit` (core/config.ts `listIgnoresLimit`). Each of its reads is the
 * whole workspace, every ticket earlier runs left included, so the run's reads would grow run
 * after run; such a read is not sent, and what it would show is what the preflight's answer did.
 */
export function limitIgnored(target: Target): string | undefined {
  const seen = target.cfg.listIgnoresLimit;
  return seen
    ? `the ticket list ignores limit: limit=1 answered ${seen.rows} tickets (${seen.bytes} bytes) before the run`
    : undefined;
}
