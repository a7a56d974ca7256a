/**
 * The Node engine's sender for one plan: an undici Pool to the target, and one keyed request
 * turned into one Sample on the server's clock — within the request budget and the time limit,
 * which it counts as dropped requests and the reason the run was truncated.
 */
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import {
  type Phase,
  type PhaseName,
  type PlanName,
  rateHeaders,
  type Sample,
} from './lib/index.ts';
import { performance } from '../core/http/pacer.ts';
import type { RequestBudget } from './request-budget.ts';

export interface SenderOptions {
  plan: PlanName;
  baseUrl: URL;
  keys: readonly string[];
  /** A key of another workspace: the phases with key index 2 (S0w, S5w) send with it. */
  otherWorkspaceKey?: string | undefined;
  timeScale: number;
  budget: RequestBudget;
  /** Aborted at the time limit: nothing is sent after it. */
  signal: AbortSignal;
  /** Pool connections, opened before S1 so the burst is not reordered by TCP setup. Default 64. */
  connections?: number;
}

export class PlanSender {
  readonly samples: Sample[] = [];
  /**
   * For the live progress (live-progress.ts): the phase sending now (or waiting out the idle
   * period before it, `idleS` server seconds long), the plan's requests.
   */
  phase: PhaseName = 'S0';
  waiting = false;
  idleS: number | undefined;
  planned = 0;
  dropped = 0;
  truncated: string | undefined;
  /** `performance.now()` when the sender was made. */
  readonly wall0 = performance.now();
  /** `performance.now()` of server time 0: the wall clock a Sample's seconds count from. */
  t0 = this.wall0;
  private readonly key0: string;
  private readonly connections: number;
  private readonly pool: Pool;
  private readonly path: string;

  constructor(private readonly o: SenderOptions) {
    const key0 = o.keys[0];
    if (!key0) throw new Error(`plan ${o.plan}: no API key`);
    setMaxListeners(0, o.signal);
    this.key0 = key0;
    this.connections = o.connections ?? 64;
    this.pool = new Pool(o.baseUrl.origin, {
      connections: this.connections,
      pipelining: 1,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    this.path = `${o.baseUrl.pathname.replace(/\/$/, '')}/v1/tickets?limit=1`;
  }

  /** Server seconds at a `performance.now()` reading. */
  private serverS(wallMs: number): number {
    return ((wallMs - this.t0) / 1000) * this.o.timeScale;
  }

  /** Moves server time 0 `waitMs` later; the samples taken so far move with it. */
  delayStart(waitMs: number): void {
    this.t0 += waitMs;
    for (const s of this.samples) {
      s.sentS -= (waitMs / 1000) * this.o.timeScale;
      s.recvS -= (waitMs / 1000) * this.o.timeScale;
    }
  }

  /** Sends request `index` of a phase; undefined when the time limit or the budget stopped it. */
  async send(
    phase: Pick<Phase, 'name' | 'key'>,
    index: number,
    retry = false,
  ): Promise<Sample | undefined> {
    if (this.o.signal.aborted) return this.drop('time limit reached');
    if (!this.o.budget.take()) return this.drop('request budget spent');
    const key = phase.key === 2 ? this.otherKey() : (this.o.keys[phase.key] ?? this.key0);
    const sent = performance.now();
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let recv = sent;
    try {
      const res = await this.pool.request({
        method: 'GET',
        path: this.path,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        signal: this.o.signal,
      });
      recv = performance.now();
      status = res.statusCode;
      headers = res.headers;
      await res.body.dump();
    } catch {
      recv = performance.now();
    }
    const s: Sample = {
      phase: phase.name,
      key: phase.key,
      index,
      sentS: this.serverS(sent),
      recvS: this.serverS(recv),
      status,
      headers: rateHeaders(headers),
      ...(retry ? { retry: true } : {}),
    };
    this.samples.push(s);
    return s;
  }

  /** The other workspace's key; a schedule only plans its phases when there is one. */
  private otherKey(): string {
    if (!this.o.otherWorkspaceKey)
      throw new Error(`plan ${this.o.plan}: a phase on another workspace's key, but none given`);
    return this.o.otherWorkspaceKey;
  }

  private drop(why: string): undefined {
    this.truncated ??= why;
    this.dropped += 1;
    return undefined;
  }

  /**
   * Opens every connection now, without a key (these never touch the key's bucket): a burst
   * whose first requests wait for TCP handshakes arrives out of order.
   */
  async warmUp(): Promise<void> {
    this.o.budget.reserve(this.connections, `connection warm-up of plan ${this.o.plan}`);
    await Promise.all(
      Array.from({ length: this.connections }, async () => {
        if (!this.o.budget.take()) return;
        const res = await this.pool
          .request({ method: 'HEAD', path: '/', signal: this.o.signal })
          .catch(() => undefined);
        await res?.body.dump().catch(() => undefined);
      }),
    );
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }
}
