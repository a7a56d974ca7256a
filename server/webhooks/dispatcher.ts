import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Agent } from 'undici';
import { WEBHOOK_DEFAULTS } from '../readings/webhooks.ts';
import { DEFAULT_JITTER, DEFAULT_RETRY_DELAYS_MS, retryDelay } from './backoff.ts';
import { classifyAttempt } from './outcome.ts';
import { signatureHeaders } from './sign.ts';
import { createDeliveryAgent } from './tls.ts';
import { postOnce } from './transport.ts';
import type { Delivery, DispatcherOptions, WebhookEndpoint, WebhookFaults } from './types.ts';

export const USER_AGENT = 'SupportTicketing-Webhooks/1';

/**
 * The outbox of the reference deployment: one delivery per subscribed endpoint and event, sent
 * at once (docs: "as the event happens"), retried per U14 until a final answer or the end of
 * the schedule. Deliveries run concurrently; nothing orders them per endpoint.
 */
export class WebhookDispatcher {
  readonly dashboardBaseUrl: string;
  private readonly now: () => number;
  private readonly schedule: readonly number[];
  private readonly jitter: number;
  private readonly timeoutMs: number;
  private readonly random: () => number;
  private readonly agent: Agent;
  private readonly trustedCa: readonly string[];
  /** One client per certificate an endpoint is trusted by, beside the shared one. */
  private readonly agents = new Map<string, Agent>();
  private faults: WebhookFaults;
  private readonly behaviour: Required<NonNullable<DispatcherOptions['behaviour']>>;
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private readonly log = new Map<string, Delivery>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly idleWaiters = new Set<{ resolve: () => void; reject: (e: Error) => void }>();
  private readonly closing = new AbortController();
  private pending = 0;
  private closed: Promise<void> | undefined;

  constructor(opts: DispatcherOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.schedule = [...(opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)];
    if (this.schedule.some((d) => !Number.isFinite(d) || d < 0))
      throw new RangeError('webhooks: retryDelaysMs must be finite, non-negative numbers');
    this.jitter = opts.jitter ?? DEFAULT_JITTER;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.random = opts.random ?? Math.random;
    this.faults = { ...opts.faults };
    const { retries, deliveryIdHeader, signatureForms } = WEBHOOK_DEFAULTS;
    this.behaviour = { retries, deliveryIdHeader, signatureForms, ...opts.behaviour };
    this.dashboardBaseUrl = opts.dashboardBaseUrl ?? 'http://127.0.0.1';
    this.trustedCa = opts.trustedCa ?? [];
    this.agent = createDeliveryAgent(this.trustedCa);
    // Every attempt in flight listens for close; hundreds at once are normal, not a leak.
    setMaxListeners(0, this.closing.signal);
  }

  /** Replaces the active faults; applies to signing and attempts from now on. */
  setFaults(faults: WebhookFaults): void {
    this.faults = { ...faults };
  }

  addEndpoint(e: Omit<WebhookEndpoint, 'id' | 'createdAt'>): WebhookEndpoint {
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      throw new TypeError('webhooks: endpoint url is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError('webhooks: endpoint url must be http: or https:');
    if (!Array.isArray(e.events) || e.events.length === 0)
      throw new TypeError('webhooks: an endpoint needs at least one event');
    if (!['prefixed', 'plain', 'both'].includes(e.form))
      throw new TypeError('webhooks: form must be prefixed, plain or both');
    const endpoint: WebhookEndpoint = {
      id: `we_${randomUUID()}`,
      workspaceId: e.workspaceId,
      url: e.url,
      events: [...new Set(e.events)],
      ...(e.secret ? { secret: e.secret } : {}),
      form: e.form,
      ...(e.ca ? { ca: e.ca } : {}),
      createdAt: new Date(this.now()).toISOString(),
    };
    this.endpoints.set(endpoint.id, endpoint);
    return { ...endpoint, events: [...endpoint.events] };
  }

  listEndpoints(workspaceId?: string): WebhookEndpoint[] {
    return [...this.endpoints.values()]
      .filter((e) => workspaceId === undefined || e.workspaceId === workspaceId)
      .map((e) => ({ ...e, events: [...e.events] }));
  }

  /**
   * Removes an endpoint. Its deliveries still waiting for a retry end as `failed`: there is no
   * longer a URL or secret to send them with.
   */
  removeEndpoint(id: string): boolean {
    if (!this.endpoints.delete(id)) return false;
    for (const d of this.log.values()) {
      if (d.endpointId !== id || d.state !== 'pending') continue;
      const timer = this.timers.get(d.id);
      if (timer) {
        clearTimeout(timer);
        this.timers.delete(d.id);
        this.settle(d, 'failed');
      }
      // An attempt in flight settles by itself and then finds the endpoint gone.
    }
    return true;
  }

  /**
   * Enqueues one delivery per endpoint of the workspace subscribed to `event` and starts sending
   * at once. `payload` is serialised once; those exact bytes are sent and signed. After
   * `close()` nothing is enqueued and the result is empty.
   */
  emit(workspaceId: string, event: string, payload: object): Delivery[] {
    if (this.closing.signal.aborted) return [];
    const body = JSON.stringify(payload);
    const created: Delivery[] = [];
    const inWorkspace = [...this.endpoints.values()].filter(
      (e) => e.workspaceId === workspaceId || this.faults.crossWorkspace,
    );
    const chosenByAny =
      this.faults.chosenPerWorkspace && inWorkspace.some((e) => e.events.includes(event));
    for (const ep of inWorkspace) {
      if (!ep.events.includes(event) && !this.faults.unsubscribedDelivered && !chosenByAny)
        continue;
      const d: Delivery = {
        id: `wd_${randomUUID()}`,
        endpointId: ep.id,
        workspaceId,
        event,
        body,
        state: 'pending',
        attempts: [],
      };
      this.log.set(d.id, d);
      this.pending++;
      created.push(copy(d));
      this.startAttempt(d);
    }
    return created;
  }

  /** Snapshot of the delivery log, oldest first. */
  deliveries(filter: { workspaceId?: string; endpointId?: string } = {}): Delivery[] {
    const out: Delivery[] = [];
    for (const d of this.log.values()) {
      if (filter.workspaceId !== undefined && d.workspaceId !== filter.workspaceId) continue;
      if (filter.endpointId !== undefined && d.endpointId !== filter.endpointId) continue;
      out.push(copy(d));
    }
    return out;
  }

  /**
   * Resolves when no delivery is pending. Rejects after `timeoutMs` (when given) or when the
   * dispatcher is closed first.
   */
  idle(timeoutMs?: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    if (this.closing.signal.aborted)
      return Promise.reject(new Error('webhooks: dispatcher closed with deliveries pending'));
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.idleWaiters.delete(waiter);
          reject(
            new Error(`webhooks: ${this.pending} deliveries still pending after ${timeoutMs} ms`),
          );
        }, timeoutMs);
      }
      this.idleWaiters.add(waiter);
    });
  }

  /** Stops retry timers, aborts attempts in flight and closes connections. Idempotent. */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing.abort();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    const err = new Error('webhooks: dispatcher closed with deliveries pending');
    for (const w of this.idleWaiters) w.reject(err);
    this.idleWaiters.clear();
    await Promise.allSettled([...this.inFlight]);
    await Promise.all([this.agent, ...this.agents.values()].map((a) => a.close()));
  }

  private startAttempt(d: Delivery): void {
    const p = this.attempt(d).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async attempt(d: Delivery): Promise<void> {
    const ep = this.endpoints.get(d.endpointId);
    if (!ep) {
      this.settle(d, 'failed');
      return;
    }
    const faults = this.faults;
    // FAULT https-deliveries-lost: an HTTPS endpoint never gets a delivery.
    if (faults.httpsLost && ep.url.startsWith('https:')) {
      this.settle(d, 'failed');
      return;
    }
    const agent = ep.ca ? this.agentFor(ep.ca) : this.agent;
    const headers: Record<string, string> = {
      'Content-Type': faults.contentTypeText ? 'text/plain; charset=utf-8' : 'application/json',
      'User-Agent': USER_AGENT,
      'X-Service-Event': d.event,
      [this.behaviour.deliveryIdHeader]: d.id,
    };
    // The exact bytes sent are the ones signed, whatever their encoding.
    const bytes = Buffer.from(d.body, faults.bodyLatin1 ? 'latin1' : 'utf8');
    const form = this.behaviour.signatureForms === 'both' ? 'both' : ep.form;
    Object.assign(headers, signatureHeaders(form, ep.secret, bytes, faults));
    const at = new Date(this.now()).toISOString();
    const result = await postOnce(
      agent,
      ep.url,
      headers,
      bytes,
      this.timeoutMs,
      this.closing.signal,
    );
    d.attempts.push({
      at,
      ...(result.status !== undefined ? { status: result.status } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      durationMs: result.durationMs,
    });
    // Closing leaves the delivery pending: it was not answered, and a restart could resume it.
    if (this.closing.signal.aborted) return;
    const verdict = classifyAttempt(result.status);
    // FAULT deliveries-sent-twice: the same delivery again to a receiver that took it.
    if (verdict === 'delivered' && faults.sentTwice && d.attempts.length === 1)
      await postOnce(agent, ep.url, headers, bytes, this.timeoutMs, this.closing.signal);
    // A retry needs the endpoint still there and a delay left in the schedule; else it failed.
    const delay =
      verdict === 'retry' && this.behaviour.retries && this.endpoints.has(d.endpointId)
        ? retryDelay(d.attempts.length - 1, this.schedule, this.jitter, this.random)
        : undefined;
    if (delay === undefined) {
      this.settle(d, verdict === 'retry' ? 'failed' : verdict);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(d.id);
      this.startAttempt(d);
    }, delay);
    this.timers.set(d.id, timer);
  }

  private agentFor(ca: string): Agent {
    let a = this.agents.get(ca);
    if (!a) {
      a = createDeliveryAgent([...this.trustedCa, ca]);
      this.agents.set(ca, a);
    }
    return a;
  }

  private settle(d: Delivery, state: Exclude<Delivery['state'], 'pending'>): void {
    if (d.state !== 'pending') return;
    d.state = state;
    this.pending--;
    if (this.pending === 0) {
      for (const w of this.idleWaiters) w.resolve();
      this.idleWaiters.clear();
    }
  }
}

function copy(d: Delivery): Delivery {
  return { ...d, attempts: d.attempts.map((a) => ({ ...a })) };
}
